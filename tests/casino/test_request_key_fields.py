"""The forms' hidden fields (issue #35, item 2): a fragment goes to every viewer who may see it, so what a
form carries is the same bytes for all of them and the request's key is left to the browser."""

from django.template import Context, Template


def _rendered(library: str) -> str:
    return Template("{% load " + library + " %}{% guard 7 %}").render(Context())


def test_a_forms_guard_is_the_same_bytes_for_every_viewer_and_leaves_the_key_to_the_browser():
    for library in ("table_screens", "tournament_console", "casino_forms"):
        first, second = _rendered(library), _rendered(library)
        assert first == second
        assert '<input type="hidden" name="version" value="7">' in first
        assert '<input type="hidden" name="key" value="">' in first
