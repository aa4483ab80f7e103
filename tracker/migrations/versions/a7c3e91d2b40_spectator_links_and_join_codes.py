"""spectator links and join codes

Revision ID: a7c3e91d2b40
Revises: ffbdc118f4ac
Create Date: 2026-11-29 17:58:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7c3e91d2b40'
down_revision = 'ffbdc118f4ac'
branch_labels = None
depends_on = None


def upgrade():
    # A unique index, not a constraint: SQLite adds it without rebuilding the games table.
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('spectator_id', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_spectator_id'), ['spectator_id'], unique=True)
    op.create_table(
        'join_codes',
        sa.Column('code', sa.String(length=8), nullable=False),
        sa.Column('game_id', sa.String(length=64), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('code'),
    )
    with op.batch_alter_table('join_codes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_join_codes_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('join_codes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_join_codes_game_id'))
    op.drop_table('join_codes')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_spectator_id'))
        batch_op.drop_column('spectator_id')
