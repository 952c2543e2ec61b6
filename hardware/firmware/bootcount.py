"""Boot counter on flash: read, add one, write back. A missing or damaged file restarts at 1."""

PATH = "bootcount.txt"


def bump(path=PATH):
    try:
        with open(path) as f:
            count = int(f.read().strip())
    except (OSError, ValueError):
        count = 0
    count = (count + 1) & 0xFFFFFFFF or 1
    try:
        with open(path, "w") as f:
            f.write(str(count))
    except OSError:
        pass  # read-only or full flash: still run, with a counter that does not persist
    return count
