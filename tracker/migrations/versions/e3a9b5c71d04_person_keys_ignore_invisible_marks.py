"""people's keys ignore invisible marks and blank letters

A typed name is matched to a person on its key (``players.normalized``). Keys kept invisible
marks (a zero-width joiner or non-joiner, a combining grapheme joiner, a variation selector) and
blank letters (Hangul fillers, the blank Braille pattern), so "Bob" and "Bob" + a zero-width
joiner pasted from a messenger were two people in the history and the statistics. Keys now
drop the marks and read the blank letters as spaces (``tracker.rules.text.person_key``).

This recomputes every key. Rows whose new keys meet are one person: the row already holding the
new key (else the oldest person) takes it, and every other person of the group is merged into
it as a merge on the Players page does (their seats move, their rows stay as aliases under
their old keys), unless two of them sat at one game: those stay two people. Nothing is undone
by the downgrade (the old keys of merged rows are kept; a key without the marks is still a key).

Revision ID: e3a9b5c71d04
Revises: d81f0c5a9e27
Create Date: 2026-12-01 06:00:00.000000

"""
import unicodedata

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e3a9b5c71d04'
down_revision = 'd81f0c5a9e27'
branch_labels = None
depends_on = None

#: As ``tracker.rules.text`` had it at this revision (a migration never follows later code).
_DROPPED = dict.fromkeys([0x200C, 0x200D, 0x034F, *range(0xFE00, 0xFE10)])
_BLANK = dict.fromkeys(map(ord, "\u115f\u1160\u3164\uffa0\u2800"), " ")


def _key(text):
    return " ".join(unicodedata.normalize("NFKC", text).translate({**_DROPPED, **_BLANK}).casefold().split())


def upgrade():
    conn = op.get_bind()
    players = sa.table("players", sa.column("id", sa.Integer), sa.column("normalized", sa.String),
                       sa.column("merged_into", sa.Integer))
    seats = sa.table("game_players", sa.column("game_id", sa.String), sa.column("player_id", sa.Integer))
    rows = conn.execute(sa.select(players.c.id, players.c.normalized, players.c.merged_into)
                        .order_by(players.c.id)).all()
    merged = {r.id: r.merged_into for r in rows}
    holder = {r.normalized: r.id for r in rows}
    groups = {}
    for r in rows:
        groups.setdefault(_key(r.normalized) or r.normalized, []).append(r)

    def kept(pid):
        while merged.get(pid) is not None:
            pid = merged[pid]
        return pid

    def games(pid):
        return set(conn.execute(sa.select(seats.c.game_id).where(seats.c.player_id == pid)).scalars())

    for key, group in groups.items():
        if all(r.normalized == key for r in group):
            continue
        owner = holder.get(key)
        if owner is not None and owner not in {r.id for r in group}:
            continue  # the key is another's (a form NFKC and case folding do not settle): left as it was
        target = owner or next((r.id for r in group if r.merged_into is None), group[0].id)
        if owner is None:
            conn.execute(players.update().where(players.c.id == target).values(normalized=key))
        person = kept(target)
        for r in group:
            other = kept(r.id)
            if other == person or r.merged_into is not None:
                continue
            if games(person) & games(other):
                continue  # sat at one game: two people
            conn.execute(seats.update().where(seats.c.player_id == other).values(player_id=person))
            conn.execute(players.update().where(players.c.merged_into == other).values(merged_into=person))
            conn.execute(players.update().where(players.c.id == other).values(merged_into=person))
            for pid, into in list(merged.items()):
                if into == other:
                    merged[pid] = person
            merged[other] = person


def downgrade():
    pass
