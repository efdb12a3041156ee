#!/usr/bin/python3
"""Runs one OpenStack Swift server with the swift.conf of a folder of our own.

    /usr/bin/python3 launch.py SWIFT_DIR CONF_FILE NAME      (NAME: proxy-server, object-server, ...)

Swift reads /etc/swift/swift.conf (hash prefix and suffix, storage policies, constraints) when its modules
are imported, whatever `swift_dir` says in a server's configuration. set_swift_dir() points it at
SWIFT_DIR/swift.conf, but in Swift 2.30 it only re-reads the hash prefix and suffix: the constraints (such
as max_meta_value_length) and the storage policies have to be reloaded here, before the server loads.
Used by scripts/object-store, which starts one of these per server.
"""
import sys

from swift.common import constraints, storage_policy, utils
from swift.common.wsgi import run_wsgi


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    swift_dir, conf_file, name = sys.argv[1:]
    utils.set_swift_dir(swift_dir)
    constraints.reload_constraints()
    storage_policy.reload_storage_policies()
    if constraints.MAX_META_VALUE_LENGTH < 2048 or utils.SWIFT_CONF_FILE != f"{swift_dir}/swift.conf":
        sys.exit(f"error: {swift_dir}/swift.conf was not taken up ({utils.SWIFT_CONF_FILE}, "
                 f"max_meta_value_length {constraints.MAX_META_VALUE_LENGTH})")
    sys.exit(run_wsgi(conf_file, name, verbose=True))


if __name__ == "__main__":
    main()
