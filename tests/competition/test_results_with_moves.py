"""The round's results page leaves games entered move by move to the board."""

from django.urls import reverse

import rules
from competition.services.rounds import round_create, round_set_pairings
from games.moves import game_set_starter, move_add
from tests.seats import pair_spec


def test_a_game_entered_by_moves_is_shown_not_typed(secretary_client, competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    by_moves, by_score = round_set_pairings(
        round=round_obj,
        pairings=[
            pair_spec(anna.pk, bert.pk, table=1, rules=rules.GOUDS_8.to_dict()),
            pair_spec(cor.pk, dirk.pk, table=2, rules=rules.GOUDS_8.to_dict()),
        ],
    )
    game_set_starter(game=by_moves, starter=0)
    move_add(game=by_moves, notation="8H WOORD", by=None)
    url = reverse("round_results", kwargs={**competition.url_kwargs, "number": 1})
    page = secretary_client.get(url).content.decode()
    assert f'data-game="{by_score.pk}"' in page
    assert f'data-game="{by_moves.pk}"' not in page
    by_moves_table = page[page.index('id="by-moves"') :]
    assert "Anna" in by_moves_table
    assert reverse("board", args=[by_moves.pk]) in by_moves_table
    # Its own table, with column headers, scrolling sideways inside its container.
    headers = by_moves_table[: by_moves_table.index("</thead>")]
    assert headers.count('<th scope="col"') == 5
    wrapper = page[: page.index('id="by-moves"')].rsplit("<div ", 1)[1]
    assert wrapper.startswith('class="table-responsive" tabindex="0" role="region"')
