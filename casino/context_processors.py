from casino.roles import LOGIN_UNLOCKERS, primary_role, roles_of


def roles(request):
    """The viewer's roles, for menus; templates never decide access with them alone."""
    user = getattr(request, "user", None)
    held = roles_of(user) if user else set()
    return {
        "viewer_roles": held,
        "viewer_primary_role": primary_role(user) if user else None,
        "viewer_unlocks_logins": bool(held & set(LOGIN_UNLOCKERS)),
    }
