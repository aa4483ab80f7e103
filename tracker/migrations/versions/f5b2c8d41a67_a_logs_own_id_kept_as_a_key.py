"""a log's own id, when it is another tool's, kept as a key

A log whose ``id`` is not shaped as this app's ("custom-1") is stored under a new id of ours;
its id was forgotten, so a second log under it, with other players, was stored as a second game
(GAME-LOG.md: a stored id is not imported twice). ``log_id_key`` keeps the hash of that id.

Revision ID: f5b2c8d41a67
Revises: e3a9b5c71d04
Create Date: 2026-12-05 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f5b2c8d41a67'
down_revision = 'e3a9b5c71d04'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('log_id_key', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_log_id_key'), ['log_id_key'], unique=True)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_log_id_key'))
        batch_op.drop_column('log_id_key')
