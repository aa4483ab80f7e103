"""an id-less imported log's content key kept apart from its game's id

A game imported from a log without an id took the hash of its content as id; since the id is
the key to the game, anyone who saw the game could compute it. New imports get a random id and
keep the hash in ``import_key``; the games imported before keep their id (their links stay
valid) and get it as ``import_key`` too, so a second import finds both the same way.

Revision ID: d81f0c5a9e27
Revises: c4d2a8e61f37
Create Date: 2026-11-30 22:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd81f0c5a9e27'
down_revision = 'c4d2a8e61f37'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('import_key', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_import_key'), ['import_key'], unique=True)
    op.execute("UPDATE games SET import_key = id WHERE id LIKE 'log-%'")


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_import_key'))
        batch_op.drop_column('import_key')
