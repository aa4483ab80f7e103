"""a game in progress keeps its turn and the seat to act

History said only "in progress" of a game not finished: its rows now say whose turn it is and
which turn (as the home page did, by replaying each game), from two listing columns written with
``status``. Games stored before get theirs from their replay on the first History or home
visit (``tracker.service.sync_standing``), as ``tracker.people.sync`` attaches old games' seats.

Revision ID: c7f1a3e9d260
Revises: b9e4d27c5a13
Create Date: 2026-12-06 21:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c7f1a3e9d260'
down_revision = 'b9e4d27c5a13'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('turn', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('to_play', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('to_play')
        batch_op.drop_column('turn')
