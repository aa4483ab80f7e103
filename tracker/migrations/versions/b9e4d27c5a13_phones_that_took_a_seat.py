"""phones that took a seat

One phone each: the seat each phone chose on "Whose phone is this?", so that another phone
asked the same question is told which seats another phone already took.

Revision ID: b9e4d27c5a13
Revises: a1d7e4c92b58
Create Date: 2026-12-06 21:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b9e4d27c5a13'
down_revision = 'a1d7e4c92b58'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'phone_claims',
        sa.Column('game_id', sa.String(length=64), nullable=False),
        sa.Column('phone', sa.String(length=32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('claimed', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', 'phone'),
    )


def downgrade():
    op.drop_table('phone_claims')
