"""The upload page: a preview of what a results file would change, then a confirmation.

The file stays on the server between the two; the confirmation is refused when the file, the
names on offer or the data changed since the preview.
"""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from clubs.models import Player
from competition.core.results_csv import MAX_FILE_BYTES
from competition.forms import question_field_name
from competition.models import Round
from competition.services.importing import (
    ImportDecisions,
    results_import_plan,
    results_import_read,
)
from competition.services.rounds import round_create, round_set_pairings
from games.models import Game
from games.services import ResultInput, game_record_result
from tests.competition.test_importing import HEADER, counts
from tests.factories import EntrantFactory, MembershipFactory, PlayerFactory, result_changes
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db


@pytest.fixture
def entrants(competition):
    """Anke de Vries, Bert and Cor: entrants and club members."""
    players = [PlayerFactory(name=name) for name in ("Anke de Vries", "Bert", "Cor")]
    for player in players:
        MembershipFactory(club=competition.club, player=player)
        EntrantFactory(competition=competition, player=player)
    return players


def url(competition):
    return reverse("results_import", kwargs=competition.url_kwargs)


def upload(client, competition, text: str | bytes):
    data = text.encode() if isinstance(text, str) else text
    file = SimpleUploadedFile("uitslagen.csv", data, content_type="text/csv")
    return client.post(url(competition), {"file": file})


def hidden(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def answer(client, competition, html: str, button: str, **names):
    """Post the preview's form back as the browser would, with some names answered."""
    data = {"digest": hidden(html, "digest"), "fingerprint": hidden(html, "fingerprint")}
    for select in re.finditer(r'<select name="(name_[0-9a-f]+)"(.*?)</select>', html, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', select.group(2))
        data[select.group(1)] = chosen.group(1) if chosen else ""
    data.update(names)
    data[button] = "1"
    return client.post(url(competition), data)


def field_for(competition, text: str, name: str) -> str:
    rows = results_import_read(data=text.encode())
    plan = results_import_plan(competition=competition, rows=rows, decisions=ImportDecisions())
    return question_field_name(next(q for q in plan.questions if q.name == name))


def test_the_preview_writes_nothing_and_confirming_writes_it(
    secretary_client, english, competition, entrants, secretary
):
    text = (
        HEADER
        + "1,1,Anke de Vries,Bert,320,290,normal\n1,,Cor,,,,bye\n1,2,Dirk,Eva,1,2,forfeit:both\n"
    )
    text = text.replace("1,2,forfeit:both", ",,forfeit:both")
    before = counts()
    response = upload(secretary_client, competition, text)
    html = response.content.decode()
    assert response.status_code == 200
    assert counts() == before
    assert "Nothing has been saved yet." in html
    assert "3 games to add" in html
    assert "New rounds: 1" in html
    assert "New players of the club: Dirk, Eva" in html
    # Names nobody in the club is close to are proposed as new players, visibly.
    assert html.count('<option value="new" selected>') == 2

    response = answer(secretary_client, competition, html, "confirm")
    assert response.status_code == 302
    assert Game.objects.filter(round__competition=competition).count() == 3
    assert set(Player.objects.filter(name__in=["Dirk", "Eva"]).values_list("name", flat=True)) == {
        "Dirk",
        "Eva",
    }
    change = result_changes(game_id=Game.objects.get(seats__player__name="Anke de Vries").pk).get()
    assert change.by == secretary
    # An automatic reason is a code, shown in the reader's language.
    assert (change.reason_code, change.reason) == ("csv_import", "")
    with translation.override("en"):
        assert change.reason_text == "imported from CSV"
    page = secretary_client.get(response.url).content.decode()
    assert "Imported 3 games in 1 round (0 results replaced); 2 new players." in page
    # The stored upload is gone: a second confirmation finds nothing to confirm.
    again = answer(secretary_client, competition, html, "confirm")
    assert again.status_code == 302
    assert counts()["Game"] == 3


def test_a_typo_must_be_settled_and_can_be_mapped_to_the_entrant(
    secretary_client, english, competition, entrants
):
    anke = entrants[0]
    text = HEADER + "1,1,Anke de Vreis,Bert,320,290,normal\n"
    html = upload(secretary_client, competition, text).content.decode()
    assert "Names that are not entrants" in html
    assert "Anke de Vries (entrant)" in html
    assert "new player “Anke de Vreis”" in html
    assert 'name="confirm"' not in html  # undecided: nothing to confirm yet
    assert "Choose who each marked name is" in html

    # Confirming anyway (a forged or old form) is refused: the name is not settled.
    before = counts()
    refused = answer(secretary_client, competition, html, "confirm")
    assert refused.status_code == 200
    assert counts() == before

    field = field_for(competition, text, "Anke de Vreis")
    updated = answer(secretary_client, competition, html, "update", **{field: str(anke.pk)})
    html = updated.content.decode()
    assert 'name="confirm"' in html
    assert f'<option value="{anke.pk}" selected>' in html
    assert "Anke de Vries – Bert" in html
    response = answer(secretary_client, competition, html, "confirm")
    assert response.status_code == 302
    assert not Player.objects.filter(name="Anke de Vreis").exists()
    assert Game.objects.get(round__competition=competition).players[0] == anke


def test_changing_the_answer_without_updating_the_preview_is_not_confirmed(
    secretary_client, english, competition, entrants
):
    text = HEADER + "1,1,Anke de Vreis,Bert,320,290,normal\n"
    html = upload(secretary_client, competition, text).content.decode()
    field = field_for(competition, text, "Anke de Vreis")
    html = answer(secretary_client, competition, html, "update", **{field: "new"}).content.decode()
    before = counts()
    # The preview showed a new player; the confirmation says "the entrant" instead.
    response = answer(
        secretary_client, competition, html, "confirm", **{field: str(entrants[0].pk)}
    )
    assert response.status_code == 200
    assert "Something changed since the preview" in response.content.decode()
    assert counts() == before


def test_a_result_saved_meanwhile_refuses_the_confirmation_and_shows_the_new_preview(
    secretary_client, english, competition, entrants
):
    anke, bert, _cor = entrants
    round_obj = round_create(competition=competition)
    (game,) = round_set_pairings(round=round_obj, pairings=[pair_spec(anke.pk, bert.pk, 1)])
    text = HEADER + "1,1,Anke de Vries,Bert,320,290,normal\n"
    html = upload(secretary_client, competition, text).content.decode()
    assert "1 paired game gets its result" in html
    assert "Not published yet: round 1." in html

    game_record_result(game=game, result=ResultInput.of_pair("normal", 300, 310), by=None)
    before = counts()
    response = answer(secretary_client, competition, html, "confirm")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Something changed since the preview" in html
    assert "1 existing result changes" in html
    assert "300 – 310" in html and "→ 320 – 290" in html
    assert counts() == before

    response = answer(secretary_client, competition, html, "confirm")
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.scores[0], game.scores[1], game.version) == (320, 290, 2)
    round_obj.refresh_from_db()
    assert round_obj.status == Round.Status.FINISHED


def test_a_forged_digest_or_player_is_refused(
    secretary_client, english, competition, entrants, other_club
):
    stranger = PlayerFactory(name="Anke de Vries")
    MembershipFactory(club=other_club, player=stranger)
    text = HEADER + "1,1,Anke de Vreis,Bert,320,290,normal\n"
    html = upload(secretary_client, competition, text).content.decode()
    field = field_for(competition, text, "Anke de Vreis")
    before = counts()
    response = answer(
        secretary_client, competition, html, "confirm", digest="0" * 64, **{field: "new"}
    )
    assert "Another file was uploaded in the meantime" in response.content.decode()
    response = answer(secretary_client, competition, html, "confirm", **{field: str(stranger.pk)})
    assert "Something changed since the preview" in response.content.decode()
    assert counts() == before


def test_a_second_upload_replaces_the_first(secretary_client, english, competition, entrants):
    first = upload(secretary_client, competition, HEADER + "1,,Cor,,,,bye\n").content.decode()
    upload(secretary_client, competition, HEADER + "2,,Bert,,,,bye\n")
    response = answer(secretary_client, competition, first, "confirm")
    assert "Another file was uploaded in the meantime" in response.content.decode()
    assert counts()["Game"] == 0


def test_an_expired_upload_and_cancel(secretary_client, english, competition, entrants):
    html = upload(secretary_client, competition, HEADER + "1,,Cor,,,,bye\n").content.decode()
    response = secretary_client.post(url(competition), {"cancel": "1", "digest": "x"})
    assert response.status_code == 302
    response = answer(secretary_client, competition, html, "confirm")
    assert response.status_code == 302
    page = secretary_client.get(response.url).content.decode()
    assert "The uploaded file has expired; choose it again." in page
    assert counts()["Game"] == 0


def test_a_large_upload_is_refused_before_reading(secretary_client, english, competition):
    data = HEADER.encode() + b"x" * (MAX_FILE_BYTES + 1)
    response = upload(secretary_client, competition, data)
    html = response.content.decode()
    assert "The file is too large (2.1 MB); a file may be at most 2 MB." in html


def test_many_bad_rows_make_a_short_page(secretary_client, english, competition):
    bad = HEADER + "x,1,Anna,Bert,1,2,normal\n" * 4000
    response = upload(secretary_client, competition, bad)
    html = response.content.decode()
    assert html.count("<li>Line ") == 50
    assert "… and 3,950 more errors" in html
    assert len(response.content) < 60_000


def test_a_file_not_in_utf8_says_so_in_dutch(secretary_client, competition):
    data = (HEADER + "1,1,Renée,Zoë,300,200,normal\n").encode("cp1252")
    html = upload(secretary_client, competition, data).content.decode()
    assert "Regel 2: het bestand is niet als UTF-8 opgeslagen" in html


def test_only_the_clubs_secretaries_may_import(client, member, competition):
    client.force_login(member)
    response = upload(client, competition, HEADER + "1,,Cor,,,,bye\n")
    assert response.status_code == 403
    assert counts()["Game"] == 0


def test_the_preview_costs_the_same_queries_for_a_long_file(
    secretary_client, competition, entrants
):
    def queries_for(rows: int) -> int:
        text = HEADER + "".join(
            f"{n},{1},Anke de Vries,Bert,300,{n},normal\n{n},,Cor,,,,bye\n"
            for n in range(1, rows + 1)
        )
        with CaptureQueriesContext(connection) as context:
            response = upload(secretary_client, competition, text)
        assert response.status_code == 200
        return len(context.captured_queries)

    assert queries_for(2) == queries_for(60)


def test_a_flag_fall_in_the_preview_names_whose_flag_fell():
    from django.utils import translation

    from competition.services.importing import describe_result
    from games.services import ResultInput, ResultKind

    flag = ResultInput.of_pair(ResultKind.FLAG_B, 310, 290)
    with translation.override("nl"):
        assert describe_result(flag, ("Anke", "Bram")) == "310 – 290 (vlag gevallen: Bram)"
        assert describe_result(flag, ("Anke", None)).startswith("310 – 290 (")
