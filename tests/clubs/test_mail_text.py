"""A mail is plain text: a club's name with an ampersand or an apostrophe is not escaped in
the subject or the body (clubs.mail)."""

from types import SimpleNamespace

from clubs.mail import mail_render


def test_a_mail_is_plain_text_whatever_the_club_is_called():
    context = {
        "club": SimpleNamespace(name="Letters & Woorden 't Gooi"),
        "player": SimpleNamespace(name='Anke "de" Vries'),
        "link": "https://example.nl/?a=1&b=2",
        "address": "https://example.nl/",
    }
    subject, body = mail_render("clubs/mail/invitation", context)
    assert subject == "Je uitnodiging van Letters & Woorden 't Gooi op Bordpunt"
    assert 'Anke "de" Vries' in body and "https://example.nl/?a=1&b=2" in body
    assert "&amp;" not in body and "&#x27;" not in body
