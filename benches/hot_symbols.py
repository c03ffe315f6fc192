"""Names the functions callgrind saw, by address, from lld's link map.

    python3 hot_symbols.py MAP CALLS_DIR N > link/hot-symbols.txt

CALLS_DIR holds 1.out .. N.out (callgrind of a stripped binary: each
function is `fn=0x<address>`). Prints the symbol each address lies in,
request by request, each name once. Used by benches/hot_symbols.sh.
"""
import bisect
import re
import sys

HEX = re.compile(r"^[0-9a-f]+$")


def symbols(map_path):
    """(address, name) of every symbol in an executable section, sorted."""
    found = []
    in_text = False
    with open(map_path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            fields = line.split(None, 5)
            if len(fields) < 5 or not all(HEX.match(f) for f in fields[:4]):
                continue
            name = line.split(None, 4)[4].strip()
            depth = len(line) - len(line.lstrip(" "))
            if name.startswith(".") and ":(" not in name and depth < 20:
                # An output section: only code is wanted.
                in_text = name.startswith(".text")
                continue
            if not in_text or ":(" in name or " " in name:
                continue
            found.append((int(fields[0], 16), name))
    found.sort()
    return found


def main():
    map_path, calls, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    table = symbols(map_path)
    starts = [address for address, _ in table]
    seen = set()
    print("# Functions of ordinary hook calls, in link order: written by")
    print("# benches/hot_symbols.sh (do not edit by hand), read by build.rs.")
    for n in range(1, count + 1):
        with open(f"{calls}/{n}.out", encoding="utf-8", errors="replace") as out:
            for line in out:
                if not line.startswith("fn=0x"):
                    continue
                address = int(line[3:].split()[0].split("'")[0], 16)
                i = bisect.bisect_right(starts, address) - 1
                if i < 0:
                    continue
                name = table[i][1]
                if name not in seen:
                    seen.add(name)
                    print(name)


main()
