"""The service as an LTI 1.3 Advantage tool (docs/LTI.md).

* :mod:`.platforms`: an operator's platforms, and the API that registers them;
* :mod:`.registration`: LTI Dynamic Registration;
* :mod:`.keys`: the tool's signing keys and their JWKS, with rotation;
* :mod:`.launch`: OIDC login and the launch's checks;
* :mod:`.deeplink`: the teacher's activity picker and the deep-linking response;
* :mod:`.routes`: the pages an LMS and its users' browsers reach, under ``/lti``.
"""
