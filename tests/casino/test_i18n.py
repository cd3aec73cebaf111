"""Spanish by default, English selectable, catalogues complete and compiled."""

import gettext
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse

LOCALE = Path(settings.BASE_DIR) / "locale"


@pytest.mark.django_db
def test_the_interface_speaks_spanish_by_default(client):
    page = client.get(reverse("login")).content.decode()
    assert "Acceso del personal" in page
    assert 'lang="es"' in page


@pytest.mark.django_db
def test_english_can_be_chosen_and_sticks(client):
    client.post(reverse("set_language"), {"language": "en", "next": reverse("login")})
    page = client.get(reverse("login")).content.decode()
    assert "Staff login" in page
    assert 'lang="en"' in page


def test_every_spanish_string_is_translated():
    po = polib.pofile(str(LOCALE / "es" / "LC_MESSAGES" / "django.po"))
    untranslated = [e.msgid for e in po if not e.obsolete and not e.translated()]
    assert untranslated == []
    assert not [e.msgid for e in po if "fuzzy" in e.flags]


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_compiled_catalogue_matches_its_source(language):
    """The .mo files are committed, so running the app needs no gettext; they must not go stale."""
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    with (LOCALE / language / "LC_MESSAGES" / "django.mo").open("rb") as f:
        mo = gettext.GNUTranslations(f)
    for entry in po:
        if entry.obsolete or not entry.translated() or entry.msgid_plural:
            continue
        # a message with a context (``{% translate "..." context "..." %}``) is looked up with it
        compiled = mo.pgettext(entry.msgctxt, entry.msgid) if entry.msgctxt else mo.gettext(entry.msgid)
        assert compiled == entry.msgstr, f"{language} .mo is stale for {entry.msgid!r}: run make messages"
