#!/usr/bin/env python3
"""Writes the schemathesis configuration of scripts/test-api to standard output.

Generated ids name nothing, so on their own they test little more than 404. The configuration binds the
id-shaped parameters of each operation to the objects scripts/test-api made (photos, albums, share links,
setup links, people and faces), so that part of the generated cases reach them; the rest keep schemathesis' own values.
Routes that delete get scratch objects of their own, so that the photos and albums the other routes use
stay for the whole run.
"""

import argparse
import json

# How often a bound parameter takes a seeded value instead of a generated one.
PROBABILITY = 0.75


def toml(value):
    """A TOML value (JSON's strings, numbers, lists and inline tables are TOML's too, spelled alike)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return json.dumps(value)


def binding(dictionary, probability=PROBABILITY):
    return {"dictionary": dictionary, "probability": probability}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    for name in (
        "assets", "scratch-assets", "albums", "scratch-albums", "shares", "scratch-shares", "scratch-tokens",
        "users", "setup-tokens", "app-files", "style-files", "web-app-versions", "versions", "face-assets", "people",
        "faces",
    ):
        # One value per option, spelled --name=value: a token may start with "-", which argparse would
        # otherwise take for an option of its own.
        parser.add_argument("--" + name, action="append", required=True, metavar="VALUE")
    parser.add_argument("--password", required=True)
    args = parser.parse_args()

    dictionaries = {
        "assets": args.assets,
        "scratch-assets": args.scratch_assets,
        "albums": args.albums,
        "scratch-albums": args.scratch_albums,
        "shares": args.shares,
        "scratch-shares": args.scratch_shares,
        "scratch-tokens": args.scratch_tokens,
        "users": args.users,
        "setup-tokens": args.setup_tokens,
        "passwords": [args.password],
        "app-files": args.app_files,
        "style-files": args.style_files,
        "web-app-versions": args.web_app_versions,
        "versions": args.versions,
        "face-assets": args.face_assets,
        "people": args.people,
        "faces": args.faces,
    }

    # (operation ids, parameter bindings)
    operations = [
        (
            ["getAsset", "updateAsset", "getOriginal", "getCurrent", "getEdits", "saveEdit",
             "revertEdit", "previewEdit", "getFilterStrip"],
            {"path.id": binding("assets")},
        ),
        # A rendition URL that names the photo's current version (`v`) may be answered before routing.
        (["getRendition"], {"path.id": binding("assets"), "query.v": binding("versions", 0.5)}),
        (
            ["getSharedImage"],
            {"path.token": binding("shares"), "path.id": binding("assets"), "query.v": binding("versions", 0.5)},
        ),
        # Deleting moves the scratch photos to Recently Deleted (or deletes them for good); recovering brings them back.
        (["deleteAsset", "recoverAsset"], {"path.id": binding("scratch-assets")}),
        (["deleteAssets", "recoverAssets"], {"body.ids[*]": binding("scratch-assets")}),
        (["updateAssets"], {"body.ids[*]": binding("assets")}),
        (["listAssets"], {"query.album": binding("albums", 0.5), "query.person": binding("people", 0.5)}),
        (["uploadAsset"], {"query.album": binding("albums", 0.5)}),
        (["getAlbum", "renameAlbum"], {"path.id": binding("albums")}),
        (
            ["addAlbumAssets", "removeAlbumAssets", "moveAlbumAssets"],
            {"path.id": binding("albums"), "body.ids[*]": binding("assets")},
        ),
        (["deleteAlbum"], {"path.id": binding("scratch-albums")}),
        (["getShared"], {"path.token": binding("shares")}),
        (["createShare"], {"body.assetID": binding("assets", 0.5), "body.albumID": binding("albums", 0.5)}),
        (["deleteShare"], {"path.id": binding("scratch-shares")}),
        (["createToken"], {"body.albumIDs[*]": binding("albums")}),
        (["deleteToken"], {"path.id": binding("scratch-tokens")}),
        (["deleteUser"], {"path.id": binding("users")}),
        (["getSetupLink"], {"path.token": binding("setup-tokens")}),
        (["completeSetup"], {"body.token": binding("setup-tokens")}),
        (["changePassword"], {"body.currentPassword": binding("passwords", 0.5)}),
        (["webAppModule"], {"path.file": binding("app-files")}),
        # People: the seeded person and faces (found by the server in the seeded face photos).
        (["getPerson", "updatePerson"], {"path.id": binding("people")}),
        (["mergePeople"], {"path.id": binding("people"), "body.people[*]": binding("people")}),
        (["listAssetFaces"], {"path.id": binding("face-assets")}),
        (["getFaceImage", "rejectFace"], {"path.id": binding("faces")}),
        (["assignFace"], {"path.id": binding("faces"), "body.personID": binding("people", 0.5)}),
        (["webAppStyles"], {"path.file": binding("style-files")}),
        # The version the page names, half the time (the file is then cached for good); any other is served too.
        (["webAppVersionedModule"], {"path.version": binding("web-app-versions", 0.5), "path.file": binding("app-files")}),
        (["webAppVersionedStyles"], {"path.version": binding("web-app-versions", 0.5), "path.file": binding("style-files")}),
    ]

    lines = ["# Written by scripts/api/config.py for one run of scripts/test-api.", ""]
    for name, values in dictionaries.items():
        lines += [f"[dictionaries.{json.dumps(name)}]", f"values = {toml(values)}", ""]
    for ids, parameters in operations:
        lines += [
            "[[operations]]",
            f"include-operation-id-regex = {toml('^(' + '|'.join(ids) + ')$')}",
            f"parameters = {toml(parameters)}",
            "",
        ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
