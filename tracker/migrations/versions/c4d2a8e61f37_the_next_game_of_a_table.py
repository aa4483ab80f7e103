"""the next game of a table: a finished game names the game its table started after it

Revision ID: c4d2a8e61f37
Revises: a7c3e91d2b40
Create Date: 2026-11-30 04:05:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4d2a8e61f37'
down_revision = 'a7c3e91d2b40'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('next_game_id', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('next_game_id')
