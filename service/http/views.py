"""Views of one method, served by a function that calls that method.

The game operations are ``MethodView`` classes (flask-smorest documents them by their
methods), each with one method and one instance for every request. Flask serves such a
view through two calls that look up the app and the request at every request
(``View.as_view``'s function, then ``MethodView.dispatch_request``, which finds the
method by the request's verb and asks ``ensure_sync`` of it): for a class of one
plain method, whatever verb reaches the view (that method's, ``HEAD`` for a ``GET``:
Flask answers ``OPTIONS`` itself) is served by that method, so the function calls it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from flask.views import MethodView


class OneMethodView(MethodView):
    """A ``MethodView`` whose view function calls its one method directly (a class
    with other methods, a coroutine, or one instance per request: Flask's way)."""

    init_every_request = False
    direct = True
    """Whether :meth:`as_view` calls the method directly (the tests compare both)."""

    @classmethod
    def as_view(cls, name: str, *class_args: Any, **class_kwargs: Any) -> Callable[..., Any]:
        view = super().as_view(name, *class_args, **class_kwargs)
        verbs = cls.methods or set()  # what MethodView found the class to define
        if not cls.direct or cls.init_every_request or len(verbs) != 1:
            return view
        method = getattr(cls(*class_args, **class_kwargs), next(iter(verbs)).lower())
        if inspect.iscoroutinefunction(method):
            return view

        def served(**kwargs: Any) -> Any:
            return method(**kwargs)

        served.__dict__.update(view.__dict__)  # view_class, methods, automatic OPTIONS
        served.__name__, served.__doc__ = view.__name__, view.__doc__
        served.__module__ = view.__module__
        return served
