"""The hand-written tasks, second half (task.py says how one is written)."""

from .task import task

TASKS_B = [
    task(
        "days_in_month", "date_time",
        "Return the number of days in a month of a given year, accounting for leap years in February.",
        """
        def _is_leap(year):
            return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


        def days_in_month(year, month):
            if month == 2:
                return 29 if _is_leap(year) else 28
            if month in (4, 6, 9, 11):
                return 30
            return 31
        """,
        ["assert days_in_month(2024, 2) == 29", "assert days_in_month(2023, 2) == 28",
         "assert days_in_month(1900, 2) == 28", "assert days_in_month(2000, 2) == 29",
         "assert days_in_month(2023, 4) == 30", "assert days_in_month(2023, 1) == 31",
         "assert days_in_month(2023, 12) == 31"],
        [("wrong_operator", "== 0 and (", "== 0 or (", None),
         ("wrong_comparison", "if month == 2", "if month != 2", None),
         ("off_by_one", "return 29 if", "return 30 if", None),
         ("remove_edge_case_check",
          "    if month == 2:\n        return 29 if _is_leap(year) else 28\n", "", None)],
    ),
    task(
        "format_duration", "date_time",
        "Format a number of seconds as H:MM:SS, with a leading minus sign for negative durations.",
        """
        def format_duration(seconds):
            if seconds < 0:
                return "-" + format_duration(-seconds)
            hours, rest = divmod(seconds, 3600)
            minutes = rest // 60
            secs = rest % 60
            return f"{hours}:{minutes:02d}:{secs:02d}"
        """,
        ["assert format_duration(0) == '0:00:00'", "assert format_duration(3661) == '1:01:01'",
         "assert format_duration(59) == '0:00:59'", "assert format_duration(7200) == '2:00:00'",
         "assert format_duration(86399) == '23:59:59'", "assert format_duration(-61) == '-0:01:01'"],
        [("swap_arguments", "divmod(seconds, 3600)", "divmod(3600, seconds)", None),
         ("wrong_operator", "secs = rest % 60", "secs = rest // 60", None),
         ("remove_edge_case_check",
          "    if seconds < 0:\n        return \"-\" + format_duration(-seconds)\n", "", None),
         ("off_by_one_boundary", "if seconds < 0", "if seconds <= 0", None)],
    ),
    task(
        "polygon_area", "geometry",
        "Compute the area of a simple polygon from its vertices in order using the shoelace formula.",
        """
        def polygon_area(points):
            n = len(points)
            total = 0.0
            for i in range(n):
                x1, y1 = points[i]
                x2, y2 = points[(i + 1) % n]
                total += x1 * y2 - x2 * y1
            return abs(total) / 2
        """,
        ["assert polygon_area([(0, 0), (2, 0), (2, 2), (0, 2)]) == 4.0",
         "assert polygon_area([(0, 0), (4, 0), (0, 3)]) == 6.0",
         "assert polygon_area([(1, 1), (3, 1), (3, 3), (1, 3)]) == 4.0",
         "assert polygon_area([]) == 0.0"],
        [("off_by_one", "range(n)", "range(n - 1)", None),
         ("wrong_operator", "x1 * y2 - x2 * y1", "x1 * y2 + x2 * y1", None),
         ("off_by_one", "(i + 1) % n", "(i + 2) % n", None),
         ("wrong_operator", "abs(total) / 2", "abs(total) * 2", None)],
    ),
    task(
        "point_in_rect", "geometry",
        "Test whether a point lies inside or on the border of an axis-aligned rectangle given as (left, bottom, right, top).",
        """
        def _between(value, low, high):
            return low <= value <= high


        def point_in_rect(point, rect):
            x, y = point
            left, bottom, right, top = rect
            return _between(x, left, right) and _between(y, bottom, top)
        """,
        ["assert point_in_rect((1, 1), (0, 0, 2, 2)) is True",
         "assert point_in_rect((0, 1), (0, 0, 2, 2)) is True",
         "assert point_in_rect((2, 2), (0, 0, 2, 2)) is True",
         "assert point_in_rect((3, 1), (0, 0, 2, 2)) is False",
         "assert point_in_rect((1, -1), (0, 0, 2, 2)) is False"],
        [("swap_arguments", "_between(y, bottom, top)", "_between(y, top, bottom)", None),
         ("off_by_one_boundary", "low <= value", "low < value", None),
         ("off_by_one_boundary", "value <= high", "value < high", None),
         ("wrong_operator", ") and _between", ") or _between", None),
         ("swap_arguments", "_between(x, left, right)", "_between(left, x, right)", None)],
    ),
    task(
        "turnstile", "state_machines",
        "Simulate a coin-operated turnstile: starting locked, a coin unlocks it and a push locks it again; return the final state.",
        """
        def turnstile(events):
            state = "locked"
            for event in events:
                if state == "locked" and event == "coin":
                    state = "unlocked"
                elif state == "unlocked" and event == "push":
                    state = "locked"
            return state
        """,
        ["assert turnstile([]) == 'locked'", "assert turnstile(['coin']) == 'unlocked'",
         "assert turnstile(['coin', 'push']) == 'locked'", "assert turnstile(['push']) == 'locked'",
         "assert turnstile(['coin', 'coin', 'push']) == 'locked'",
         "assert turnstile(['push', 'coin']) == 'unlocked'"],
        [("wrong_operator", "\"locked\" and event", "\"locked\" or event", None),
         ("wrong_comparison", "event == \"coin\"", "event != \"coin\"", None),
         ("wrong_comparison", "state == \"unlocked\"", "state != \"unlocked\"", None),
         ("off_by_one", "for event in events:", "for event in events[1:]:", None)],
    ),
    task(
        "is_balanced", "state_machines",
        "Check that every bracket in a string ((), [], {}) is closed by the matching bracket in the right order.",
        """
        def is_balanced(text):
            pairs = {")": "(", "]": "[", "}": "{"}
            stack = []
            for ch in text:
                if ch in "([{":
                    stack.append(ch)
                elif ch in pairs:
                    if not stack or stack.pop() != pairs[ch]:
                        return False
            return len(stack) == 0
        """,
        ["assert is_balanced('()') is True", "assert is_balanced('([]{})') is True",
         "assert is_balanced('(]') is False", "assert is_balanced('((') is False",
         "assert is_balanced(')') is False", "assert is_balanced('') is True"],
        [("remove_edge_case_check", "if not stack or stack.pop()", "if stack.pop()", None),
         ("wrong_comparison", "!= pairs[ch]", "== pairs[ch]", None),
         ("wrong_operator", "not stack or", "not stack and", None),
         ("wrong_comparison", "len(stack) == 0", "len(stack) != 0", None)],
    ),
    task(
        "is_valid_hex_color", "validation",
        "Validate a CSS hex colour string of the form #RRGGBB with hexadecimal digits in either case.",
        """
        def is_valid_hex_color(text):
            if len(text) != 7 or text[0] != "#":
                return False
            return all(ch in "0123456789abcdefABCDEF" for ch in text[1:])
        """,
        ["assert is_valid_hex_color('#1a2B3c') is True, 'accepts mixed-case digits'",
         "assert is_valid_hex_color('#12345') is False, 'rejects a short colour'",
         "assert is_valid_hex_color('1234567') is False, 'requires the leading #'",
         "assert is_valid_hex_color('#12345g') is False, 'rejects a non-hex digit'",
         "assert is_valid_hex_color('#g12345') is False, 'checks the first digit'",
         "assert is_valid_hex_color('') is False, 'rejects the empty string'"],
        [("incorrect_slice", "for ch in text[1:]", "for ch in text", "legacy:2"),
         ("wrong_operator", "!= 7 or text", "!= 7 and text", None),
         ("remove_edge_case_check", " or text[0] != \"#\"", "", None),
         ("off_by_one", "len(text) != 7", "len(text) != 6", None),
         ("off_by_one", "for ch in text[1:]", "for ch in text[2:]", None),
         ("wrong_comparison", "text[0] != \"#\"", "text[0] == \"#\"", None)],
    ),
    task(
        "is_valid_ipv4", "validation",
        "Validate a dotted-quad IPv4 address: four decimal parts, each between 0 and 255.",
        """
        def is_valid_ipv4(address):
            parts = address.split(".")
            if len(parts) != 4:
                return False
            for part in parts:
                if not part.isdigit():
                    return False
                if int(part) > 255:
                    return False
            return True
        """,
        ["assert is_valid_ipv4('192.168.0.1') is True", "assert is_valid_ipv4('255.255.255.255') is True",
         "assert is_valid_ipv4('256.1.1.1') is False", "assert is_valid_ipv4('1.2.3') is False",
         "assert is_valid_ipv4('a.b.c.d') is False", "assert is_valid_ipv4('1.2.3.-4') is False",
         "assert is_valid_ipv4('0.0.0.0') is True"],
        [("off_by_one_boundary", "int(part) > 255", "int(part) >= 255", None),
         ("remove_edge_case_check", "        if not part.isdigit():\n            return False\n", "", None),
         ("off_by_one", "len(parts) != 4", "len(parts) != 3", None),
         ("wrong_comparison", "int(part) > 255", "int(part) < 255", None),
         ("remove_edge_case_check", "    if len(parts) != 4:\n        return False\n", "", None)],
    ),
    task(
        "is_prime", "math_numerical",
        "Decide whether an integer is prime by trial division up to its square root.",
        """
        def is_prime(n):
            if n < 2:
                return False
            i = 2
            while i * i <= n:
                if n % i == 0:
                    return False
                i += 1
            return True
        """,
        ["assert is_prime(2) is True", "assert is_prime(3) is True", "assert is_prime(4) is False",
         "assert is_prime(9) is False", "assert is_prime(25) is False", "assert is_prime(1) is False",
         "assert is_prime(0) is False", "assert is_prime(97) is True"],
        [("off_by_one_boundary", "i * i <= n", "i * i < n", None),
         ("remove_edge_case_check", "    if n < 2:\n        return False\n", "", None),
         ("off_by_one", "i = 2", "i = 1", None),
         ("wrong_comparison", "n % i == 0", "n % i != 0", None)],
    ),
    task(
        "insertion_sort", "sorting_searching",
        "Sort a list of numbers in ascending order with insertion sort, returning a new list.",
        """
        def insertion_sort(items):
            result = list(items)
            for i in range(1, len(result)):
                key = result[i]
                j = i - 1
                while j >= 0 and result[j] > key:
                    result[j + 1] = result[j]
                    j -= 1
                result[j + 1] = key
            return result
        """,
        ["assert insertion_sort([3, 1, 2]) == [1, 2, 3]", "assert insertion_sort([]) == []",
         "assert insertion_sort([5, 4, 3, 2, 1]) == [1, 2, 3, 4, 5]",
         "assert insertion_sort([1, 1, 0]) == [0, 1, 1]", "assert insertion_sort([2, 1]) == [1, 2]"],
        [("off_by_one_boundary", "j >= 0", "j > 0", None),
         ("wrong_comparison", "result[j] > key", "result[j] < key", None),
         ("off_by_one", "range(1, len(result))", "range(1, len(result) - 1)", None),
         ("wrong_operator", "j -= 1", "j += 1", None)],
    ),
    task(
        "merge_sorted", "sorting_searching",
        "Merge two ascending lists into one ascending list containing all elements of both.",
        """
        def merge_sorted(a, b):
            i, j = 0, 0
            out = []
            while i < len(a) and j < len(b):
                if a[i] <= b[j]:
                    out.append(a[i])
                    i += 1
                else:
                    out.append(b[j])
                    j += 1
            out.extend(a[i:])
            out.extend(b[j:])
            return out
        """,
        ["assert merge_sorted([1, 3, 5], [2, 4]) == [1, 2, 3, 4, 5]", "assert merge_sorted([], [1]) == [1]",
         "assert merge_sorted([1, 2], []) == [1, 2]", "assert merge_sorted([1], [1]) == [1, 1]",
         "assert merge_sorted([5], [1, 2]) == [1, 2, 5]"],
        [("wrong_comparison", "a[i] <= b[j]", "a[i] >= b[j]", None),
         ("wrong_operator", "len(a) and j", "len(a) or j", None),
         ("off_by_one", "out.extend(a[i:])", "out.extend(a[i + 1:])", None),
         ("off_by_one_boundary", "i < len(a)", "i <= len(a)", None)],
    ),
    task(
        "moving_average", "data_transformation",
        "Return the simple moving averages of a list over a sliding window; an empty list when the window does not fit.",
        """
        def moving_average(values, window):
            if window <= 0 or window > len(values):
                return []
            out = []
            total = sum(values[:window])
            out.append(total / window)
            for i in range(window, len(values)):
                total += values[i] - values[i - window]
                out.append(total / window)
            return out
        """,
        ["assert moving_average([1, 2, 3, 4], 2) == [1.5, 2.5, 3.5]",
         "assert moving_average([1, 2, 3], 3) == [2.0]", "assert moving_average([1, 2], 3) == []",
         "assert moving_average([1, 2], 0) == []", "assert moving_average([5], 1) == [5.0]"],
        [("missing_return", "    return out\n", "", "legacy:2"),
         ("off_by_one_boundary", "window > len(values)", "window >= len(values)", None),
         ("remove_edge_case_check", "window <= 0 or ", "", None),
         ("wrong_operator", "values[i] - values", "values[i] + values", None),
         ("off_by_one", "values[i - window]", "values[i - window + 1]", None),
         ("swap_arguments", "range(window, len(values))", "range(len(values), window)", None)],
    ),
]
