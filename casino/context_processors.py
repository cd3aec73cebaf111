from casino.roles import primary_role, roles_of


def roles(request):
    """The viewer's roles, for menus; templates never decide access with them alone."""
    user = getattr(request, "user", None)
    return {
        "viewer_roles": roles_of(user) if user else set(),
        "viewer_primary_role": primary_role(user) if user else None,
    }
