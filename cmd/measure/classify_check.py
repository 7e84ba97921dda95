"""The independent verdict for `measure classify`: python-jsonschema's Draft 2020-12 validator
(format not asserted, its default) on each pair read from stdin as JSON Lines
{"key", "schema", "args"} (args: the argument text). Writes {"key", "valid"} per line; "valid"
is null when the text is not JSON."""
import json
import sys

import jsonschema


def main():
    cache = {}
    for line in sys.stdin:
        pair = json.loads(line)
        schema_text = json.dumps(pair["schema"], sort_keys=True)
        if schema_text not in cache:
            cache[schema_text] = jsonschema.Draft202012Validator(pair["schema"])
        try:
            args = json.loads(pair["args"])
        except ValueError:
            valid = None
        else:
            valid = cache[schema_text].is_valid(args)
        sys.stdout.write(json.dumps({"key": pair["key"], "valid": valid}) + "\n")


if __name__ == "__main__":
    main()
