"""The screens of the client, one scene per module, on the app's scene stack."""
