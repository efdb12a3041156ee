#!/usr/bin/python3
"""Signature V4 requests to an S3 API, with nothing but the standard library (no boto, no pip).

    s3check.py check                      smoke test: bucket sepia-test, PUT/HEAD/GET/ranged GET/DELETE of a
                                          small object with user metadata; exit 0 when the API works
    s3check.py request METHOD PATH [-H 'Name: value']... [--data TEXT | --data-file FILE] [-o FILE]
                                          one signed request (path-style: /bucket/key?query); prints the
                                          status line and headers to stderr and the body to stdout (or FILE)

The store comes from SEPIA_S3_ENDPOINT, SEPIA_S3_REGION, SEPIA_S3_ACCESS_KEY_ID, SEPIA_S3_SECRET_ACCESS_KEY
(as in the env file scripts/object-store writes), or from --endpoint, --region, --access-key, --secret-key.
"""
import argparse
import datetime
import hashlib
import hmac
import http.client
import os
import sys
import urllib.parse

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~"


def quote(text, safe=""):
    return urllib.parse.quote(text, safe=UNRESERVED + safe)


class Store:
    def __init__(self, endpoint, region, access_key, secret_key):
        url = urllib.parse.urlsplit(endpoint)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise SystemExit(f"error: not an http(s) endpoint: {endpoint!r}")
        self.scheme, self.netloc = url.scheme, url.netloc
        self.region, self.access_key, self.secret_key = region, access_key, secret_key

    def request(self, method, path, headers=None, body=b"", unsigned_payload=False):
        """One signed request; returns (status, reason, headers as a list of pairs, body)."""
        split = urllib.parse.urlsplit(path)
        # Path-style: each segment encoded once, as S3 expects (no double encoding, '/' kept).
        raw_path = urllib.parse.unquote(split.path or "/")
        canonical_uri = quote(raw_path, safe="/")
        pairs = urllib.parse.parse_qsl(split.query, keep_blank_values=True)
        canonical_query = "&".join(f"{quote(k)}={quote(v)}" for k, v in sorted(pairs))

        now = datetime.datetime.now(datetime.timezone.utc)
        amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
        payload_hash = "UNSIGNED-PAYLOAD" if unsigned_payload else hashlib.sha256(body).hexdigest()
        all_headers = {k.strip().lower(): " ".join(str(v).split()) for k, v in (headers or {}).items()}
        all_headers.update({"host": self.netloc, "x-amz-date": amz_date, "x-amz-content-sha256": payload_hash})
        if body or method in ("PUT", "POST"):
            all_headers["content-length"] = str(len(body))
        signed = sorted(all_headers)
        canonical_headers = "".join(f"{name}:{all_headers[name]}\n" for name in signed)
        signed_headers = ";".join(signed)
        canonical_request = "\n".join(
            [method, canonical_uri, canonical_query, canonical_headers, signed_headers, payload_hash])

        scope = f"{day}/{self.region}/s3/aws4_request"
        string_to_sign = "\n".join(
            ["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical_request.encode()).hexdigest()])
        key = ("AWS4" + self.secret_key).encode()
        for part in (day, self.region, "s3", "aws4_request"):
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        signature = hmac.new(key, string_to_sign.encode(), hashlib.sha256).hexdigest()
        all_headers["authorization"] = (
            f"AWS4-HMAC-SHA256 Credential={self.access_key}/{scope}, "
            f"SignedHeaders={signed_headers}, Signature={signature}")

        connection_class = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        connection = connection_class(self.netloc, timeout=30)
        try:
            target = canonical_uri + ("?" + canonical_query if canonical_query else "")
            connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
            for name, value in all_headers.items():
                connection.putheader(name, value)
            connection.endheaders(body if body else None)
            response = connection.getresponse()
            return response.status, response.reason, response.getheaders(), response.read()
        finally:
            connection.close()


def header(headers, name):
    return next((v for k, v in headers if k.lower() == name.lower()), None)


def check(store):
    """The smoke test: raises SystemExit with what went wrong, or prints one line per step."""
    bucket, key = "sepia-test", "object-store-check/hello world.txt"
    body = b"Hello from scripts/object-store\n" * 4
    meta = "x" * 300  # over Swift's default 256-byte limit on a metadata value: swift.conf was read

    def step(description, method, path, expected, headers=None, data=b""):
        status, reason, response_headers, response_body = store.request(method, path, headers, data)
        if status not in expected:
            text = response_body[:600].decode("utf-8", "replace")
            raise SystemExit(f"error: {description}: {method} {path} answered {status} {reason}\n{text}")
        print(f"  {method:6} {path}: {status} {reason}  ({description})")
        return status, response_headers, response_body

    status, _, reply = step("create the bucket", "PUT", f"/{bucket}", (200, 409))
    if status == 409 and b"BucketAlreadyOwnedByYou" not in reply and b"BucketAlreadyExists" not in reply:
        raise SystemExit(f"error: create the bucket: 409 {reply[:600].decode('utf-8', 'replace')}")
    path = f"/{bucket}/{quote(key, safe='/')}"
    _, headers, _ = step("put an object with metadata", "PUT", path, (200,),
                         {"Content-Type": "text/plain", "x-amz-meta-sepia-check": meta}, body)
    etag = (header(headers, "ETag") or "").strip('"')
    if etag != hashlib.md5(body).hexdigest():
        raise SystemExit(f"error: the ETag {etag!r} is not the MD5 of the body")
    _, headers, _ = step("head it", "HEAD", path, (200,))
    if header(headers, "x-amz-meta-sepia-check") != meta or header(headers, "Content-Length") != str(len(body)):
        raise SystemExit(f"error: HEAD does not return the metadata and size: {headers}")
    _, _, reply = step("get it", "GET", path, (200,))
    if reply != body:
        raise SystemExit("error: GET returned other bytes than were put")
    _, headers, reply = step("ranged get", "GET", path, (206,), {"Range": "bytes=6-9"})
    if reply != body[6:10] or header(headers, "Content-Range") != f"bytes 6-9/{len(body)}":
        raise SystemExit(f"error: ranged GET returned {reply!r}, {header(headers, 'Content-Range')}")
    step("list the bucket", "GET", f"/{bucket}?list-type=2&prefix=object-store-check/", (200,))
    step("delete it", "DELETE", path, (204,))
    step("it is gone", "GET", path, (404,))
    wrong = Store(f"{store.scheme}://{store.netloc}", store.region, store.access_key, store.secret_key + "-wrong")
    status, _, _, _ = wrong.request("GET", f"/{bucket}")
    if status != 403:
        raise SystemExit(f"error: a wrong secret key got {status}, not 403")
    print(f"  GET    /{bucket} with a wrong secret: 403")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--endpoint", default=os.environ.get("SEPIA_S3_ENDPOINT"))
    parser.add_argument("--region", default=os.environ.get("SEPIA_S3_REGION", "us-east-1"))
    parser.add_argument("--access-key", default=os.environ.get("SEPIA_S3_ACCESS_KEY_ID"))
    parser.add_argument("--secret-key", default=os.environ.get("SEPIA_S3_SECRET_ACCESS_KEY"))
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check")
    one = commands.add_parser("request")
    one.add_argument("method")
    one.add_argument("path")
    one.add_argument("-H", "--header", action="append", default=[])
    one.add_argument("--data")
    one.add_argument("--data-file")
    one.add_argument("--unsigned-payload", action="store_true")
    one.add_argument("-o", "--output")
    args = parser.parse_args()
    if not (args.endpoint and args.access_key and args.secret_key):
        parser.error("needs the endpoint and keys (SEPIA_S3_* variables or options)")
    store = Store(args.endpoint, args.region, args.access_key, args.secret_key)

    if args.command == "check":
        check(store)
        return
    headers = {}
    for line in args.header:
        name, _, value = line.partition(":")
        headers[name.strip()] = value.strip()
    body = b""
    if args.data is not None:
        body = args.data.encode()
    elif args.data_file:
        with open(args.data_file, "rb") as f:
            body = f.read()
    status, reason, response_headers, reply = store.request(
        args.method.upper(), args.path, headers, body, args.unsigned_payload)
    print(f"{status} {reason}", file=sys.stderr)
    for name, value in response_headers:
        print(f"{name}: {value}", file=sys.stderr)
    if args.output:
        with open(args.output, "wb") as f:
            f.write(reply)
    else:
        sys.stdout.buffer.write(reply)
        sys.stdout.flush()
    sys.exit(0 if status < 400 else 1)


if __name__ == "__main__":
    main()
