"""A suspended club is read-only everywhere, its pages say so; a pending club is its
secretaries' alone until the operator approves it (`hosting.middleware`)."""

import pytest
from django.urls import reverse

import rules
from clubs.models import ClubStatus, HistoryEntry, Membership
from duplicate.models import DuplicateCompetition, Participant, Slip
from duplicate.services.evenings import evening_create
from duplicate.services.turns import turn_draw
from games.models import Game, Move
from hosting.middleware import forget_club_status
from tests.factories import GameFactory, RoundFactory, secretary_of, user_in_club

pytestmark = pytest.mark.django_db

SUSPENDED = "Deze club is opgeschort door de dienstbeheerder van Bordpunt"


def text(response) -> str:
    return response.content.decode()


def set_status(club, status) -> None:
    """As the operator's services set it: saved, and the pages' cached status forgotten."""
    club.status = status
    club.save()
    forget_club_status(club.slug)


@pytest.fixture
def anna(club):
    return user_in_club(club, username="anna")


@pytest.fixture
def game(competition, anna, club):
    bert = user_in_club(club, username="bert")
    return GameFactory(
        round=RoundFactory(competition=competition),
        table=1,
        player_a=anna.player,
        player_b=bert.player,
        rules=rules.GOUDS_8.to_dict(),
        starter="a",
    )


def unchanged(count_before: int) -> bool:
    return HistoryEntry.objects.count() == count_before


# --- suspended: every write refused, nothing changed ------------------------------------


def test_a_secretary_write_is_refused_and_changes_nothing(secretary_client, club):
    set_status(club, ClubStatus.SUSPENDED)
    before = HistoryEntry.objects.count()
    response = secretary_client.post(
        reverse("club_settings", kwargs={"club": club.slug}), {"slip_notation": "rows_lettered"}
    )
    assert response.status_code == 403
    assert SUSPENDED in text(response)
    club.refresh_from_db()
    assert club.slip_notation != "rows_lettered"
    assert unchanged(before)
    # Reading stays: the settings page, and the page says why nothing can be saved.
    page = secretary_client.get(reverse("club_settings", kwargs={"club": club.slug}))
    assert page.status_code == 200 and 'id="club-suspended"' in text(page)


def test_a_players_move_on_the_board_is_refused(client, club, game, anna):
    """The board is addressed by the game: `games.policy` refuses, as every writer asks it."""
    set_status(club, ClubStatus.SUSPENDED)
    client.force_login(anna)
    before = HistoryEntry.objects.count()
    board = reverse("board", args=[game.pk])
    data = {"version": game.version, "kind": "play", "notation": "8H WOORD"}
    plain = client.post(board, data)
    assert plain.status_code == 422 and SUSPENDED in text(plain)
    htmx = client.post(board, data, HTTP_HX_REQUEST="true")
    assert SUSPENDED in text(htmx)
    assert not Move.objects.filter(game=game).exists()
    assert unchanged(before)
    assert client.get(board).status_code == 200  # the board still reads


def test_a_players_own_result_is_refused(client, club, game, anna):
    set_status(club, ClubStatus.SUSPENDED)
    client.force_login(anna)
    before = HistoryEntry.objects.count()
    response = client.post(
        reverse("game_result", args=[game.pk]),
        {"action": "enter", "version": 0, "kind": "normal", "score_a": "412", "score_b": "388"},
    )
    assert SUSPENDED in text(response)
    assert Game.objects.get(pk=game.pk).scores[0] is None
    assert unchanged(before)


def test_a_commands_move_is_refused_too(club, game):
    """`by=None` (a command, an import from the command line) is refused as well."""
    from games.moves import MoveError, move_add

    set_status(club, ClubStatus.SUSPENDED)
    game = Game.objects.select_related("round__competition__club").get(pk=game.pk)
    with pytest.raises(MoveError, match="opgeschort"):
        move_add(game=game, notation="8H WOORD", by=None)
    assert not Move.objects.filter(game=game).exists()


def test_a_duplicate_slip_is_refused(client, club, anna):
    duplicate = DuplicateCompetition.objects.create(
        club=club, name="Duplicate", slug="duplicate", rules="standard"
    )
    Participant.objects.create(competition=duplicate, player=anna.player)
    secretary = secretary_of(club)
    evening = evening_create(competition=duplicate, number=1, by=secretary)
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    set_status(club, ClubStatus.SUSPENDED)
    client.force_login(anna)
    address = reverse("duplicate_slip", args=[club.slug, duplicate.slug, 1])
    response = client.post(address, {"turn": "1", "text": "8H KAAS", "claimed": "14"})
    assert response.status_code == 403 and SUSPENDED in text(response)
    assert not Slip.objects.exists()


def test_an_invitation_is_refused(secretary_client, club, anna):
    lone = Membership.objects.create(club=club, player=type(anna.player).objects.create(name="Cor"))
    set_status(club, ClubStatus.SUSPENDED)
    response = secretary_client.post(
        reverse("club_players", kwargs={"club": club.slug}), {"player": lone.player.pk}
    )
    assert response.status_code == 403
    lone.player.refresh_from_db()
    assert not lone.player.invite_code_hash


def test_the_public_pages_say_the_club_is_suspended(client, club, competition):
    set_status(club, ClubStatus.SUSPENDED)
    page = text(client.get(reverse("club", kwargs={"club": club.slug})))
    assert 'id="club-suspended"' in page and "is opgeschort" in page
    standings = client.get(reverse("standings", kwargs=competition.url_kwargs))
    assert standings.status_code == 200 and 'id="club-suspended"' in text(standings)


def test_an_active_club_shows_no_notice_and_writes(secretary_client, club):
    page = text(secretary_client.get(reverse("club", kwargs={"club": club.slug})))
    assert 'id="club-suspended"' not in page and 'id="club-pending"' not in page
    response = secretary_client.post(
        reverse("club_settings", kwargs={"club": club.slug}), {"slip_notation": "rows_lettered"}
    )
    assert response.status_code == 302


# --- pending: not public ----------------------------------------------------------------


def test_a_pending_club_is_its_secretaries_alone(client, club, competition, secretary, anna):
    set_status(club, ClubStatus.PENDING)
    address = reverse("club", kwargs={"club": club.slug})
    standings = reverse("standings", kwargs=competition.url_kwargs)
    assert client.get(address).status_code == 404
    assert client.get(standings).status_code == 404
    client.force_login(anna)  # a member is not its secretary
    assert client.get(address).status_code == 404
    client.force_login(secretary)
    page = client.get(address)
    assert page.status_code == 200 and 'id="club-pending"' in text(page)
    # Its secretary prepares it: writes are allowed.
    response = client.post(
        reverse("club_settings", kwargs={"club": club.slug}), {"slip_notation": "rows_lettered"}
    )
    assert response.status_code == 302


def test_the_operator_sees_a_pending_clubs_public_page(client, club, operator):
    set_status(club, ClubStatus.PENDING)
    client.force_login(operator)
    assert client.get(reverse("club", kwargs={"club": club.slug})).status_code == 200
    # ... but not its secretary's pages.
    assert client.get(reverse("club_settings", kwargs={"club": club.slug})).status_code == 403


def test_a_repeat_visit_sees_the_suspension(client, club, competition):
    """The public pages answer 304 while unchanged: the club's status is part of that."""
    address = reverse("standings", kwargs=competition.url_kwargs)
    client.get(address)  # a first visit sets the cookie the page's forms are made from
    first = client.get(address)
    assert client.get(address, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    set_status(club, ClubStatus.SUSPENDED)
    again = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and 'id="club-suspended"' in text(again)


def test_an_invitation_made_before_the_suspension_waits(club, secretary):
    from django.contrib.auth import get_user_model

    from clubs.accounts import AccountError, account_create_from_invite, player_invite
    from clubs.models import Player

    cor = Player.objects.create(name="Cor")
    Membership.objects.create(club=club, player=cor)
    invitation = player_invite(club=club, player=cor, by=secretary)
    set_status(club, ClubStatus.SUSPENDED)
    with pytest.raises(AccountError) as refused:
        account_create_from_invite(code=invitation.code, username="cor", password="x" * 20)
    assert "opgeschort" in str(refused.value.message)
    assert not get_user_model().objects.filter(username="cor").exists()


def test_the_home_page_lists_no_pending_club(client, club, other_club):
    set_status(other_club, ClubStatus.PENDING)
    page = text(client.get(reverse("home")))
    assert club.name in page and other_club.name not in page


def test_the_operators_suspension_shows_at_once(
    client, operator, club, django_capture_on_commit_callbacks
):
    """A page read the status into the cache; the suspension's commit clears it."""
    address = reverse("club", kwargs={"club": club.slug})
    assert 'id="club-suspended"' not in text(client.get(address))
    client.force_login(operator)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("operator_suspend", kwargs={"club": club.slug}), {"reason": "x"})
    assert 'id="club-suspended"' in text(client.get(address))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("operator_reactivate", kwargs={"club": club.slug}), {})
    assert 'id="club-suspended"' not in text(client.get(address))
