"""a new-game form's key: a double tap on "Start the game" starts one game

The home page's new-game form carries a key of its own (``start_key``); a game started from it
keeps the hash of that key and the form's fields. A second post of the same form (a double tap,
a tap again over slow Wi-Fi) finds that game instead of starting another: the unique index
makes it so even for two posts at the same instant.

Revision ID: a1d7e4c92b58
Revises: f5b2c8d41a67
Create Date: 2026-12-05 19:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a1d7e4c92b58'
down_revision = 'f5b2c8d41a67'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('start_key', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_start_key'), ['start_key'], unique=True)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_start_key'))
        batch_op.drop_column('start_key')
