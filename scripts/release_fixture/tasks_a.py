"""The hand-written tasks, first half (task.py says how one is written)."""

from .task import task

TASKS_A = [
    task(
        "clamp", "math_numerical",
        "Limit a number to the closed range [lo, hi]: return lo when it is below, hi when it is above, otherwise the number itself.",
        """
        def clamp(x, lo, hi):
            if x < lo:
                return lo
            if x > hi:
                return hi
            return x
        """,
        ["assert clamp(5, 0, 10) == 5", "assert clamp(-3, 0, 10) == 0",
         "assert clamp(12, 0, 10) == 10", "assert clamp(0, 0, 10) == 0",
         "assert clamp(10, 0, 10) == 10"],
        [("wrong_return_value", "    return x\n", "    return lo\n", "legacy:4"),
         ("wrong_comparison", "if x < lo:", "if x > lo:", None),
         ("remove_edge_case_check", "    if x > hi:\n        return hi\n", "", None),
         ("off_by_one", "return hi", "return hi - 1", None),
         ("off_by_one", "return lo", "return lo - 1", None)],
    ),
    task(
        "is_leap_year", "date_time",
        "Decide whether a year is a leap year in the Gregorian calendar (divisible by 4, except centuries that are not divisible by 400).",
        """
        def is_leap_year(year):
            if year % 400 == 0:
                return True
            if year % 100 == 0:
                return False
            return year % 4 == 0
        """,
        ["assert is_leap_year(2000) is True", "assert is_leap_year(1900) is False",
         "assert is_leap_year(2024) is True", "assert is_leap_year(2023) is False",
         "assert is_leap_year(2100) is False"],
        [("remove_edge_case_check", "    if year % 400 == 0:\n        return True\n", "", None),
         ("wrong_comparison", "year % 4 == 0", "year % 4 != 0", None),
         ("wrong_operator", "year % 100", "year // 100", None),
         ("off_by_one", "year % 400", "year % 401", None)],
    ),
    task(
        "count_vowels", "string_processing",
        "Count how many vowels (a, e, i, o, u, in either case) a string contains.",
        """
        def count_vowels(text):
            count = 0
            for ch in text.lower():
                if ch in "aeiou":
                    count += 1
            return count
        """,
        ["assert count_vowels('hello') == 2", "assert count_vowels('AEIOU') == 5",
         "assert count_vowels('') == 0", "assert count_vowels('rhythm') == 0",
         "assert count_vowels('Banana') == 3"],
        [("wrong_comparison", "if ch in", "if ch not in", None),
         ("wrong_operator", "count += 1", "count -= 1", None),
         ("off_by_one", "count = 0", "count = 1", None),
         ("off_by_one", "text.lower():", "text.lower()[1:]:", None)],
    ),
    task(
        "gcd", "math_numerical",
        "Compute the greatest common divisor of two integers with Euclid's algorithm; the result is never negative.",
        """
        def gcd(a, b):
            a, b = abs(a), abs(b)
            while b != 0:
                a, b = b, a % b
            return a
        """,
        ["assert gcd(12, 8) == 4", "assert gcd(17, 5) == 1", "assert gcd(0, 7) == 7",
         "assert gcd(12, -18) == 6", "assert gcd(9, 0) == 9"],
        [("wrong_operator", "a % b", "a // b", None),
         ("wrong_comparison", "while b != 0", "while b == 0", None),
         ("remove_edge_case_check", "    a, b = abs(a), abs(b)\n", "", None),
         ("off_by_one", "while b != 0", "while b != 1", None)],
        first=3,
    ),
    task(
        "binary_search", "sorting_searching",
        "Find the index of a target value in a sorted list using binary search, or return -1 when it is absent.",
        """
        def binary_search(items, target):
            lo, hi = 0, len(items) - 1
            while lo <= hi:
                mid = (lo + hi) // 2
                if items[mid] == target:
                    return mid
                if items[mid] < target:
                    lo = mid + 1
                else:
                    hi = mid - 1
            return -1
        """,
        ["assert binary_search([1, 3, 5, 7, 9], 7) == 3",
         "assert binary_search([1, 3, 5, 7, 9], 1) == 0",
         "assert binary_search([1, 3, 5, 7, 9], 9) == 4",
         "assert binary_search([1, 3, 5, 7, 9], 4) == -1",
         "assert binary_search([1, 3, 5, 7, 9], 10) == -1",
         "assert binary_search([], 3) == -1", "assert binary_search([2], 2) == 0"],
        [("off_by_one_boundary", "while lo <= hi", "while lo < hi", None),
         ("off_by_one", "lo = mid + 1", "lo = mid", "once"),
         ("off_by_one", "len(items) - 1", "len(items)", None),
         ("wrong_comparison", "items[mid] < target", "items[mid] > target", None),
         ("wrong_comparison", "items[mid] == target", "items[mid] != target", None)],
    ),
    task(
        "run_length_encode", "string_processing",
        "Run-length encode a string: each run of a repeated character becomes the character followed by the run length.",
        """
        def run_length_encode(text):
            if not text:
                return ""
            out = []
            current, count = text[0], 1
            for ch in text[1:]:
                if ch == current:
                    count += 1
                else:
                    out.append(current + str(count))
                    current, count = ch, 1
            out.append(current + str(count))
            return "".join(out)
        """,
        ["assert run_length_encode('aaabcc') == 'a3b1c2'", "assert run_length_encode('') == ''",
         "assert run_length_encode('x') == 'x1'", "assert run_length_encode('abab') == 'a1b1a1b1'"],
        [("remove_edge_case_check", "    if not text:\n        return \"\"\n", "", None),
         ("wrong_comparison", "if ch == current", "if ch != current", None),
         ("off_by_one", "text[0], 1", "text[0], 0", None),
         ("off_by_one", "for ch in text[1:]", "for ch in text[2:]", None)],
    ),
    task(
        "manhattan_distance", "geometry",
        "Return the Manhattan (taxicab) distance between two points given as coordinate tuples of equal length.",
        """
        def manhattan_distance(p, q):
            total = 0
            for a, b in zip(p, q):
                total += abs(a - b)
            return total
        """,
        ["assert manhattan_distance((0, 0), (3, 4)) == 7",
         "assert manhattan_distance((1, 2), (1, 2)) == 0",
         "assert manhattan_distance((-1, 5), (2, -3)) == 11",
         "assert manhattan_distance((1, 2, 3), (4, 0, 3)) == 5"],
        [("wrong_operator", "abs(a - b)", "abs(a + b)", None),
         ("wrong_operator", "total += ", "total -= ", None),
         ("off_by_one", "total = 0", "total = 1", None),
         ("off_by_one", "zip(p, q)", "zip(p[1:], q)", None)],
    ),
    task(
        "parity_bit", "bit_manipulation",
        "Return the even-parity bit of a non-negative integer: 1 when its binary form has an odd number of ones, else 0.",
        """
        def parity_bit(n):
            ones = 0
            while n:
                ones += n & 1
                n >>= 1
            return ones % 2
        """,
        ["assert parity_bit(0) == 0", "assert parity_bit(1) == 1", "assert parity_bit(3) == 0",
         "assert parity_bit(7) == 1", "assert parity_bit(255) == 0", "assert parity_bit(8) == 1"],
        [("wrong_operator", "n & 1", "n | 1", None),
         ("wrong_operator", "ones % 2", "ones // 2", None),
         ("off_by_one", "ones = 0", "ones = 1", None),
         ("off_by_one", "n >>= 1", "n >>= 2", None)],
    ),
    task(
        "is_power_of_two", "bit_manipulation",
        "Check whether an integer is a positive power of two using a bit trick.",
        """
        def is_power_of_two(n):
            if n <= 0:
                return False
            return n & (n - 1) == 0
        """,
        ["assert is_power_of_two(1) is True", "assert is_power_of_two(2) is True",
         "assert is_power_of_two(16) is True", "assert is_power_of_two(0) is False",
         "assert is_power_of_two(-8) is False", "assert is_power_of_two(12) is False",
         "assert is_power_of_two(6) is False"],
        [("wrong_constant", "n & (n - 1) == 0", "n & (n - 1) == 1", "legacy:2"),
         ("remove_edge_case_check", "    if n <= 0:\n        return False\n", "", None),
         ("off_by_one_boundary", "n <= 0", "n < 0", None),
         ("wrong_operator", "n & (n - 1)", "n | (n - 1)", None),
         ("off_by_one", "(n - 1)", "(n - 2)", None),
         ("wrong_comparison", "== 0", "!= 0", None)],
    ),
    task(
        "chunk", "collections",
        "Split a list into consecutive chunks of a given size; the last chunk may be shorter.",
        """
        def chunk(items, size):
            if size <= 0:
                raise ValueError("size must be positive")
            return [items[i:i + size] for i in range(0, len(items), size)]
        """,
        ["assert chunk([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]", "assert chunk([], 3) == []",
         "assert chunk([1, 2, 3], 3) == [[1, 2, 3]]", "assert chunk([1, 2, 3], 1) == [[1], [2], [3]]"],
        [("off_by_one", "items[i:i + size]", "items[i:i + size - 1]", None),
         ("off_by_one", "range(0, len(items), size)", "range(1, len(items), size)", None),
         ("swap_arguments", "range(0, len(items), size)", "range(0, size, len(items))", None),
         ("wrong_operator", "i + size]", "i * size]", None)],
    ),
    task(
        "word_frequencies", "collections",
        "Count how often each whitespace-separated word occurs in a text and return a dictionary of counts.",
        """
        def word_frequencies(text):
            counts = {}
            for word in text.split():
                counts[word] = counts.get(word, 0) + 1
            return counts
        """,
        ["assert word_frequencies('a b a') == {'a': 2, 'b': 1}", "assert word_frequencies('') == {}",
         "assert word_frequencies('x') == {'x': 1}",
         "assert word_frequencies('to be or not to be') == {'to': 2, 'be': 2, 'or': 1, 'not': 1}"],
        [("swap_arguments", "counts.get(word, 0)", "counts.get(0, word)", None),
         ("off_by_one", "counts.get(word, 0)", "counts.get(word, 1)", None),
         ("wrong_operator", ") + 1", ") - 1", None),
         ("off_by_one", "text.split():", "text.split()[1:]:", None)],
    ),
    task(
        "normalize_scores", "data_transformation",
        "Min-max normalise a list of numbers to the range 0..1; an empty list gives an empty list and equal values all map to 0.0.",
        """
        def normalize_scores(scores):
            if not scores:
                return []
            lo, hi = min(scores), max(scores)
            if lo == hi:
                return [0.0 for _ in scores]
            return [(s - lo) / (hi - lo) for s in scores]
        """,
        ["assert normalize_scores([0, 5, 10]) == [0.0, 0.5, 1.0]", "assert normalize_scores([]) == []",
         "assert normalize_scores([3, 3]) == [0.0, 0.0]", "assert normalize_scores([2, 4]) == [0.0, 1.0]"],
        [("remove_edge_case_check", "    if lo == hi:\n        return [0.0 for _ in scores]\n", "", None),
         ("remove_edge_case_check", "    if not scores:\n        return []\n", "", None),
         ("wrong_operator", "(s - lo)", "(s + lo)", None),
         ("wrong_comparison", "if lo == hi", "if lo != hi", None)],
    ),
]
