"""Player accounts: a secretary invites a member, the member makes an account with the
code or the link, and then enters and confirms results (the whole flow over HTTP)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubs.accounts import (
    CODE_ALPHABET,
    AccountError,
    account_create_from_invite,
    code_hash,
    code_normalized,
    player_invite,
)
from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Membership, Player
from games.models import Game
from tests.factories import (
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    user_in_club,
)

pytestmark = pytest.mark.django_db

STRONG = "Zeven-Letters-2026"


def invite(client, club, player) -> str:
    """The secretary presses "Invite"; returns the code the page shows."""
    response = client.post(reverse("club_players", args=[club.slug]), {"player": player.pk})
    assert response.status_code == 200
    invitation = response.context["invitation"]
    assert invitation.display_code.replace("-", "") == invitation.code
    assert invitation.display_code in response.content.decode()
    return invitation.code


def link(player, code: str) -> str:
    return reverse("invite_link", kwargs={"player": player.pk, "code": code})


def follow_link(client, url: str, **extra):
    """Open the invitation link (the form, with the code filled in) and press "Next"."""
    page = client.get(url, **extra)
    assert page.status_code == 200
    code = page.context["form"]["code"].value()
    assert f'value="{code}"' in page.content.decode()
    return client.post(url, {"code": code}, **extra)


def wrong_code(code: str) -> str:
    """The code with every character one further along the alphabet."""
    return "".join(CODE_ALPHABET[(CODE_ALPHABET.index(c) + 1) % len(CODE_ALPHABET)] for c in code)


def make_account(client, username: str) -> None:
    response = client.post(
        reverse("invite_account"),
        {"username": username, "password1": STRONG, "password2": STRONG},
    )
    assert response.status_code == 302, response.content.decode()
    assert response["Location"] == reverse("my_games")


def test_invite_make_accounts_enter_confirm_dispute_and_decide(
    client, secretary, club, competition, django_user_model
):
    from django.test import Client

    anna, bert = PlayerFactory(name="Anna"), PlayerFactory(name="Bert")
    for player in (anna, bert):
        MembershipFactory(club=club, player=player)
    client.force_login(secretary)
    code_anna = invite(client, club, anna)
    code_bert = invite(client, club, bert)
    assert Player.objects.get(pk=anna.pk).invite_code_hash == code_hash(code_anna)
    assert code_anna not in str(Player.objects.filter(pk=anna.pk).values().get())

    # Anna opens the link; Bert types his code from the paper, in lower case with a space.
    phone_anna, phone_bert = Client(), Client()
    response = follow_link(phone_anna, link(anna, code_anna))
    assert response["Location"] == reverse("invite_account")
    assert "Anna" in phone_anna.get(reverse("invite_account")).content.decode()
    make_account(phone_anna, "anna")
    typed = f"{code_bert[:4].lower()} {code_bert[4:].lower()}"
    response = phone_bert.post(reverse("invite_code"), {"code": typed})
    assert response["Location"] == reverse("invite_account")
    make_account(phone_bert, "bert")
    anna.refresh_from_db()
    bert.refresh_from_db()
    assert (anna.user.username, bert.user.username) == ("anna", "bert")
    assert anna.user.check_password(STRONG)
    assert (anna.invite_code_hash, anna.invite_expires_at) == ("", None)
    # The code works once.
    response = follow_link(phone_anna, link(anna, code_anna))
    assert response.status_code == 200 and "niet geldig" in response.content.decode()

    game = GameFactory(
        round=RoundFactory(competition=competition), table=3, player_a=anna, player_b=bert
    )
    result_url = reverse("game_result", args=[game.pk])
    page = phone_bert.get(reverse("my_games")).content.decode()
    assert "Anna" in page and "niet ingevoerd" in page

    # Anna enters 380-350; Bert sees it waiting for him and enters other scores.
    response = phone_anna.post(
        result_url,
        {"action": "enter", "version": 0, "kind": "normal", "score_a": "380", "score_b": "350"},
    )
    assert response.status_code == 302
    assert "wacht op bevestiging" in phone_anna.get(result_url).content.decode()
    assert "bevestig de uitslag" in phone_bert.get(reverse("my_games")).content.decode()
    game.refresh_from_db()
    response = phone_bert.post(
        result_url,
        {
            "action": "enter",
            "version": game.version,
            "kind": "normal",
            "score_a": "350",
            "score_b": "380",
        },
        follow=True,
    )
    assert "de secretaris beslist" in response.content.decode()
    game.refresh_from_db()
    assert game.confirmation == "disputed"

    # The secretary's round page shows the table as disputed; the decision has a reason.
    round_page = client.get(game.round.get_absolute_url()).content.decode()
    assert "betwist" in round_page
    response = client.post(
        result_url,
        {
            "action": "override",
            "version": game.version,
            "kind": "normal",
            "score_a": "350",
            "score_b": "380",
            "reason": "Scoreblad nagerekend",
        },
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.scores[0], game.scores[1], game.confirmation) == (350, 380, "confirmed")
    assert "bevestigd" in client.get(game.round.get_absolute_url()).content.decode()

    history = list(
        HistoryEntry.objects.filter(club=club).order_by("at", "pk").values_list("action", "by")
    )
    users = {user.username: user.pk for user in django_user_model.objects.all()}
    assert history == [
        (HistoryAction.PLAYER_INVITE, users["secretaris"]),
        (HistoryAction.PLAYER_INVITE, users["secretaris"]),
        (HistoryAction.ACCOUNT_CREATE, users["anna"]),
        (HistoryAction.ACCOUNT_CREATE, users["bert"]),
        (HistoryAction.RESULT_ENTER, users["anna"]),  # provisional, by games.services
        (HistoryAction.RESULT_DISPUTE, users["bert"]),
        (HistoryAction.RESULT_CORRECT, users["secretaris"]),  # the decided scores
        (HistoryAction.RESULT_OVERRIDE, users["secretaris"]),
    ]


def test_the_opponent_confirms_with_one_button(client, club, competition):
    anna, bert = user_in_club(club, username="anna"), user_in_club(club, username="bert")
    game = GameFactory(
        round=RoundFactory(competition=competition), player_a=anna.player, player_b=bert.player
    )
    url = reverse("game_result", args=[game.pk])
    client.force_login(anna)
    client.post(
        url, {"action": "enter", "version": 0, "kind": "normal", "score_a": "1", "score_b": "0"}
    )
    page = client.get(url).content.decode()
    assert 'id="confirm-form"' not in page  # not her own entry
    client.force_login(bert)
    assert 'id="confirm-form"' in client.get(url).content.decode()
    response = client.post(url, {"action": "confirm", "version": 2}, follow=True)
    assert "Uitslag bevestigd." in response.content.decode()
    assert Game.objects.get(pk=game.pk).confirmation == "confirmed"


def test_weak_passwords_and_taken_usernames_are_refused(client, secretary, club):
    player = PlayerFactory(name="Cor")
    MembershipFactory(club=club, player=player)
    code = player_invite(club=club, player=player, by=secretary).code
    assert follow_link(client, link(player, code)).status_code == 302
    # Every reason in Dutch, in the app's voice ("je", not "u"): none left in English.
    expected = {
        "12345678": ["Dit wachtwoord is te algemeen.", "Dit wachtwoord bevat alleen cijfers."],
        "cor": ["Dit wachtwoord is te kort: gebruik minstens 8 tekens."],
    }
    for password, reasons in expected.items():
        response = client.post(
            reverse("invite_account"),
            {"username": "cor", "password1": password, "password2": password},
        )
        assert response.status_code == 200
        page = response.content.decode()
        for reason in reasons:
            assert reason in page
        assert "This password" not in page and "Uw wachtwoord" not in page
    assert "Minstens 8 tekens." in page and "Niet alleen cijfers." in page  # the help texts
    response = client.post(
        reverse("invite_account"),
        {"username": "Secretaris", "password1": STRONG, "password2": STRONG},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "bestaat al" in page
    assert get_user_model().objects.filter(username__iexact="cor").count() == 0
    player.refresh_from_db()
    assert player.user is None and player.invite_code_hash


def test_an_expired_or_replaced_invitation_is_refused(client, secretary, club):
    player = PlayerFactory()
    MembershipFactory(club=club, player=player)
    old = player_invite(club=club, player=player, by=secretary, now=timezone.now()).code
    new = player_invite(club=club, player=player, by=secretary).code
    response = follow_link(client, link(player, old))
    assert response.status_code == 200 and "niet geldig" in response.content.decode()
    later = timezone.now() + timedelta(days=15)
    with pytest.raises(AccountError):
        account_create_from_invite(code=new, username="laat", password=STRONG, now=later)
    user = account_create_from_invite(code=new, username="optijd", password=STRONG)
    assert Player.objects.get(pk=player.pk).user == user
    with pytest.raises(AccountError):
        account_create_from_invite(code=new, username="tweede", password=STRONG)


@pytest.mark.parametrize(
    "typed",
    ["", "x" * 5000, "ABCD\x00EFGH", "ABCD-EFG٣", "²²²²²²²²", "ABCDEFG0", "abcd efgh ij"],
)
def test_odd_codes_are_wrong_codes_not_errors(client, typed):
    assert code_normalized(typed) is None or len(code_normalized(typed)) == 8
    response = client.post(reverse("invite_code"), {"code": typed})
    assert response.status_code == 200
    in_path = typed.replace("\x00", "")
    if in_path and len(in_path) < 41:
        for url in (
            reverse("invite_link", kwargs={"player": 1, "code": in_path}),
            reverse("invite_link_without_player", args=[in_path]),
        ):
            assert client.get(url).status_code == 200
            assert client.post(url, {"code": in_path}).status_code == 200


def test_account_page_without_a_code_sends_back(client):
    response = client.get(reverse("invite_account"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("invite_code")
    assert "Vul eerst de code" in response.content.decode()


def test_who_may_see_and_use_the_players_page(client, club, member, other_secretary, secretary):
    url = reverse("club_players", args=[club.slug])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for user in (member, other_secretary):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(url, {"player": member.player.pk}).status_code == 403
    assert not Player.objects.exclude(invite_code_hash="").exists()
    client.force_login(secretary)
    assert client.get(url).status_code == 200
    # A player of another club cannot be invited from here.
    outsider = PlayerFactory()
    assert client.post(url, {"player": outsider.pk}).status_code == 404
    # Nor one that has an account already.
    response = client.post(url, {"player": member.player.pk}, follow=True)
    assert "heeft al een account" in response.content.decode()
    assert client.post(url, {"player": "٣"}).status_code == 200


def test_the_players_page_has_a_fixed_query_budget(client, club, secretary):
    client.force_login(secretary)
    url = reverse("club_players", args=[club.slug])

    def count() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    count()  # the first visit reads the club's status into the cache (hosting.middleware)
    few = count()
    for number in range(25):
        user_in_club(club) if number % 2 else MembershipFactory(club=club)
    assert count() == few <= 8
    assert Membership.objects.filter(club=club).count() == 26
