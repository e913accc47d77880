"""The board speaks Dutch and reads like a scoresheet: every message the engine and the
notation reader can give has a Dutch text with no English left in it; every turn that is
not a play is said in words; the preview and the page say nothing they should not."""

import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

import rules
from games import rule_messages
from games.board import PREMIUMS, grouped_tiles, move_in_words, rule_set_label
from games.moves import MoveError, move_add, move_preview, moves_import_gcg
from tests.games.squares import said, shown
from tests.games.test_stored_codes import sample_params, stored_codes

#: Words of the engine's English that have no business in a Dutch sentence.
ENGLISH_WORDS = re.compile(
    r"\b(the|are|not|cannot|must|only|has|holds|tiles?|blank|word|play|move|square|"
    r"rack|board|exchange|pass|challenge|turn|player|rules|set|position|line|"
    r"expected|recorded|total|already|there|and|with|under)\b",
    re.IGNORECASE,
)


#: GCG syntax quoted in a message (``(challenge)``, ``#player1``): a file's words, not English.
GCG_SYNTAX = re.compile(r"\(challenge\)|#[\w-]+|>[\w-]*")


def english_in(text: str) -> re.Match | None:
    return ENGLISH_WORDS.search(GCG_SYNTAX.sub("", text))


def dutch(code: str, params: dict) -> str:
    with translation.override("nl"):
        return rule_messages.describe(code, params)


def test_every_code_the_engine_and_the_notation_can_raise_reads_in_plain_dutch():
    codes = stored_codes()
    assert {"tiles_on_board", "too_many_tiles", "bad_notation", "gcg_score"} <= codes
    for code in sorted(codes):
        with translation.override("en"):
            params = sample_params(str(rule_messages.MESSAGES[code]))
        # Placeholders get values no English word can hide in.
        text = dutch(code, {name: 7 for name in params})
        assert text and "{" not in text, code
        assert not english_in(text), (code, text)
    for detail in sorted(rule_messages.NOTATION_DETAILS):
        params = {"notation": "8Z W", "detail": detail, "reason": "ENGLISH REASON"}
        text = dutch("bad_notation", params | {"character": "!", "letter": "1", "position": "8Z"})
        assert "ENGLISH" not in text and not english_in(text), (detail, text)


def refused(game, notation: str) -> str:
    with translation.override("nl"), pytest.raises(MoveError) as refusal:
        move_preview(game=game, notation=notation)
    return str(refusal.value.message)


@pytest.mark.django_db
def test_the_board_refusals_of_the_issue_read_in_dutch(game, play):
    assert refused(game, "8Z WOORD") == (
        "Kan de zet “8Z WOORD” niet lezen: “8Z” is geen positie zoals 8H of H8."
    )
    assert refused(game, "8H") == (
        "Kan de zet “8H” niet lezen: een zet schrijf je als POSITIE WOORD, bv. 8H WOORD."
    )
    # Lowercase letters are blanks: the refusal names the blank and says why.
    assert refused(game, "8h woord") == (
        "De blokjesset heeft maar 2 × blanco. Kleine letters zijn blanco's: W, O, O, R, D "
        "(0 punten). Typ hoofdletters voor gewone blokjes."
    )
    assert refused(game, "-ZZZ") == "De blokjesset heeft maar 2 × Z."
    play(game, "8H ZOO")
    # One of the two Z is on the board: the exchange names the board, not the rack.
    assert refused(game, "-ZZ") == (
        "ZZ kan niet: de blokjesset heeft 2 × Z, waarvan al 1 op het bord."
    )
    assert "blanco" in refused(game, "-???")


@pytest.mark.django_db
def test_a_blank_named_by_the_engine_is_a_blank_in_both_languages():
    assert dutch("too_many_tiles", {"count": 2, "letter": "blank", "tiles": "dutch"}) == (
        "De blokjesset heeft maar 2 × blanco."
    )
    with translation.override("en"):
        english = rule_messages.describe("too_many_tiles", {"count": 2, "letter": "?"})
    assert english == "The tile set has only 2 × blank."


@pytest.mark.parametrize(
    ("notation", "words_nl", "words_en"),
    [
        ("-3", "ruilt 3 blokjes", "exchanges 3 tiles"),
        ("-1", "ruilt 1 blokje", "exchanges 1 tile"),
        ("-ABC", "ruilt 3 blokjes: ABC", "exchanges 3 tiles: ABC"),
        ("-", "past", "passes"),
        ("--", "bezwaar: woord eraf", "challenge: word removed"),
        ("(challenge)", "bezwaar: woord goed", "challenge: word valid"),
        ("swap H5", "blanco op H5 gewisseld", "blank on H5 swapped"),
        ("swap H5 K9", "blanco's op H5 en K9 gewisseld", "blanks on H5 and K9 swapped"),
        ("(flagfall)", "vlag gevallen", "flag fell"),
        ("(time 2)", "2 minuten over tijd", "2 minutes over time"),
        ("(annulled)", "niet naar behoren gespeeld", "not properly played"),
        ("(AEI)", "over op het plankje: AEI", "left on the rack: AEI"),
        ("()", "niets over op het plankje", "nothing left on the rack"),
        ("8H WOORD", "8H WOORD", "8H WOORD"),
        ("not a move", "not a move", "not a move"),
    ],
)
def test_the_scoresheet_says_every_turn_but_a_play_in_words(notation, words_nl, words_en):
    with translation.override("nl"):
        assert move_in_words(notation) == words_nl
    with translation.override("en"):
        assert move_in_words(notation) == words_en


@pytest.mark.parametrize(
    ("notation", "blanks"),
    [
        ("8h woord", "woord"),
        ("8H WOoRD", "o"),
        ("8H JAVE(li)N", ""),
        ("H8 .RGAnDIE", "n"),
        ("-ab", ""),
        ("SWAP h5", ""),
        ("(challenge)", ""),
        ("8H", ""),
    ],
)
def test_only_lowercase_letters_placed_by_a_play_are_blanks(notation, blanks):
    assert rule_messages.typed_blanks(notation) == blanks


def test_rule_sets_are_named_by_their_labels_and_unseen_tiles_wrap():
    with translation.override("nl"):
        assert rule_set_label(rules.GOUDS_8) == "Gouds 8"
        assert rule_set_label(rules.STANDARD) == "standaardregels"
        assert rule_set_label(rules.SBNL_WEDSTRIJD) == "SBNL-wedstrijdregels"
        home = rules.RuleSet.from_dict({**rules.GOUDS_8.to_dict(), "name": "thuis"})
        assert rule_set_label(home) == "clubvariant"
    assert grouped_tiles("AAABCC??") == "AAA B CC ??"
    assert grouped_tiles("") == ""
    assert {label for label, _name in PREMIUMS.values()} == {"3W", "2W", "3L", "2L"}


# --- the board page and its preview ------------------------------------------------------


def page_of(client, game) -> str:
    return unescape(client.get(reverse("board", args=[game.pk])).content.decode())


def preview(client, game, **data) -> str:
    game.refresh_from_db()
    response = client.post(
        reverse("move_preview", args=[game.pk]), {"version": game.version, "kind": "play", **data}
    )
    assert response.status_code == 200
    return " ".join(unescape(response.content.decode()).split())


@pytest.mark.django_db
def test_the_board_page_reads_like_a_dutch_scoresheet(secretary_client, game, play):
    play(game, "8H WOORD", "(challenge)", "-3", "-", "H8 .Oo", "--")
    page = page_of(secretary_client, game)
    assert '<span id="ruleset">Gouds 8</span>' in page
    moves = re.findall(r'<span class="move-words">([^<]*)</span>', page)
    assert moves == ["bezwaar: woord goed", "ruilt 3 blokjes", "past", "bezwaar: woord eraf"]
    assert "(challenge)" not in page.split('id="scoresheet"')[1].split("<details")[0]
    # Squares for a screen reader: rows and cells, premiums by name.
    assert page.count('role="row"') == 16 and page.count('role="gridcell"') == 225
    assert said(page, "A1") == "A1 3W drievoudige woordwaarde"
    assert shown(page, "H8") == "H8 W"
    # One form per action, each with its own action: Enter submits that one.
    for form, kind in (("move-form", "play"), ("exchange-form", "exchange"), ("swap-form", "swap")):
        html = page.split(f'id="{form}"')[1].split("</form>")[0]
        assert f'<input type="hidden" name="kind" value="{kind}">' in html, form


@pytest.mark.django_db
def test_a_blank_is_announced_as_a_blank(secretary_client, game, play):
    play(game, "8H WOoRD")
    page = page_of(secretary_client, game)
    assert re.search(r'class="sq +tile blank last" data-square="J8"', page)
    assert said(page, "J8") == "J8 O blanco"


@pytest.mark.django_db
def test_the_preview_says_nothing_before_letters_are_typed(secretary_client, game):
    assert preview(secretary_client, game) == ""
    assert preview(secretary_client, game, start="H8") == (
        '<div class="alert alert-secondary py-1 mb-0 preview-hint">'
        "Vanaf H8 horizontaal: typ de letters.</div>"
    )
    assert "verticaal" in preview(secretary_client, game, start="h8", direction="down")
    assert "preview-error" in preview(secretary_client, game, start="H8", letters="W1")


@pytest.mark.django_db
def test_the_preview_reads_as_a_sentence(secretary_client, game, play):
    text = preview(secretary_client, game, notation="8H WOORD")
    score = '<strong class="preview-score">26</strong> punten'
    assert f'{score}<span class="small preview-words">: WOORD 26</span>' in text
    play(game, "8G DORENS")
    crossing = preview(secretary_client, game, notation="J6 SN.RP")
    assert "19</strong> punten<span" in crossing and ">: SNERP 19</span>" in crossing


@pytest.mark.django_db
def test_bingo_only_where_the_rule_set_gives_a_bonus(secretary_client, make_game):
    eight = "8D VERLOSTE"  # all eight tiles of a Gouds 8 rack: no bonus there
    gouds = preview(secretary_client, make_game(rules.GOUDS_8), notation=eight)
    assert "preview-score" in gouds and "bingo" not in gouds
    standard = preview(secretary_client, make_game(rules.STANDARD), notation="8D VERLOST")
    assert re.search(r"VERLOST \d+ \+ bingo 50</span>", standard)


@pytest.mark.django_db
def test_a_deliberate_blank_is_named_in_the_preview(secretary_client, game):
    text = preview(secretary_client, game, notation="8H WOoRD")
    assert "Een kleine letter is een blanco: O (0 punten)." in text
    assert "kleine letter" not in preview(secretary_client, game, notation="8H WOORD").lower()
    assert "blank" not in preview(secretary_client, game, notation="8H JAVE(li)N").lower()


@pytest.mark.django_db
def test_a_refused_exchange_keeps_what_was_typed_and_its_focus(secretary_client, game, play):
    play(game, "8H ZOO")
    game.refresh_from_db()
    response = secretary_client.post(
        reverse("board", args=[game.pk]),
        {"version": game.version, "kind": "exchange", "tiles": "ZZ"},
    )
    assert response.status_code == 422
    page = unescape(response.content.decode())
    assert "ZZ kan niet: de blokjesset heeft 2 × Z, waarvan al 1 op het bord." in page
    exchange = page.split('id="exchange-form"')[1].split("</form>")[0]
    assert 'autofocus value="ZZ"' in exchange
    assert "autofocus" not in page.split('id="move-form"')[1].split("</form>")[0]


@pytest.mark.django_db
def test_the_correction_history_dates_are_dutch(secretary_client, game):
    move_add(game=game, notation="(annulled)", by=None)
    competition = game.round.competition
    url = reverse("game_correct", kwargs={**competition.url_kwargs, "game_id": game.pk})
    page = secretary_client.get(url).content.decode()
    months = (
        "januari februari maart april mei juni juli augustus september oktober november december"
    )
    assert re.search(rf"\b\d{{1,2}} ({'|'.join(months.split())}) \d{{4}} \d\d:\d\d\b", page)


@pytest.mark.django_db
def test_the_replay_and_the_analysis_say_turns_in_words(client, game, demo_gcg):
    moves_import_gcg(game=game, data=demo_gcg("demo-1"), by=None)
    replay = unescape(client.get(reverse("replay", args=[game.pk]) + "?zet=4").content.decode())
    assert (
        '<p class="mt-2 mb-0" id="current-move"><span class="font-monospace">ruilt 3 blokjes: OQT'
        in replay
    )
    analysis = unescape(
        client.get(
            reverse("game_analysis", args=[game.pk]), headers={"HX-Request": "true"}
        ).content.decode()
    )
    row = analysis.split('<tr data-move="4"')[1].split("</tr>")[0]
    assert "ruilt 3 blokjes: OQT" in row and "-OQT" not in row
