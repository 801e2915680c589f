"""tools/node-tests/jssplit.py — cuts a CommonJS test file into its top-level statements and rewrites
each into a numbered try of its own (run.py; docs/captured-surface.md, "Node's own tests").

Owns a small JavaScript tokenizer (comments, strings, template literals with nested `${}`, regular
expression literals told from division by the token before) and the statement cutter built on it:
at bracket depth 0 a statement ends at `;` (unless `else` follows), or at the `}` closing a
declaration or block statement (unless `else`, `catch`, `finally` or a do-loop's `while`
follows), or where a new line starts at column 0 after a token that can end an expression (the
semicolon-less case). Trusts its input only as text: it never runs it, and input it cannot
tokenize (an unterminated string or comment) makes it give up on the file (ValueError).
Written for this project.
"""
import re

PUNCT3 = ("===", "!==", "**=", "...", "<<=", ">>=", ">>>", "&&=", "||=", "??=")
PUNCT2 = ("=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=",
          "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**")
REGEX_AFTER_WORDS = {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
                     "case", "do", "else", "yield", "await"}
IDENT_RE = re.compile(r"[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*")
NUM_RE = re.compile(r"(?:0[xXoObB][0-9a-fA-F_]+n?|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?n?)")
MAX_SOURCE = 4 << 20


class Tok:
    __slots__ = ("kind", "text", "start", "end", "line", "col")

    def __init__(self, kind, text, start, end, line, col):
        self.kind, self.text, self.start, self.end, self.line, self.col = kind, text, start, end, line, col


def tokenize(src):
    """Tokens of src (comments dropped). kind: id, num, str, tpl, re, p (punctuator)."""
    if len(src) > MAX_SOURCE:
        raise ValueError("source too large")
    toks = []
    i, n = 0, len(src)
    line, line_start = 1, 0
    stack = []  # for template literals: depth of braces inside each open `${`

    def regex_allowed():
        if not toks:
            return True
        t = toks[-1]
        if t.kind in ("num", "str", "tpl", "re"):
            return False
        if t.kind == "id":
            return t.text in REGEX_AFTER_WORDS
        return t.text not in (")", "]")

    def template_from(j):
        # scan template text from j (just after ` or }) to its end (`) or to a `${`
        while j < n:
            c = src[j]
            if c == "\\":
                j += 2
                continue
            if c == "`":
                return j + 1, False
            if c == "$" and j + 1 < n and src[j + 1] == "{":
                return j + 2, True
            j += 1
        raise ValueError("unterminated template literal")

    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            line_start = i + 1
            i += 1
            continue
        if c in " \t\r\ufeff\u00a0\u2028\u2029":
            i += 1
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            if j < 0:
                raise ValueError("unterminated comment")
            line += src.count("\n", i, j)
            k = src.rfind("\n", i, j)
            if k >= 0:
                line_start = k + 1
            i = j + 2
            continue
        start, col, tline = i, i - line_start, line
        if c in "'\"":
            j = i + 1
            while j < n and src[j] != c:
                if src[j] == "\\":
                    j += 1
                elif src[j] == "\n":
                    raise ValueError("unterminated string")
                j += 1
            if j >= n:
                raise ValueError("unterminated string")
            i = j + 1
            toks.append(Tok("str", src[start:i], start, i, tline, col))
            continue
        if c == "`" or (c == "}" and stack and stack[-1] == 0):
            if c == "}":
                stack.pop()
            j, opened = template_from(i + 1)
            line += src.count("\n", i, j)
            k = src.rfind("\n", i, j)
            if k >= 0:
                line_start = k + 1
            i = j
            if opened:
                stack.append(0)
            toks.append(Tok("tpl", src[start:i], start, i, tline, col))
            continue
        if c == "/" and regex_allowed():
            j, in_class = i + 1, False
            while j < n:
                d = src[j]
                if d == "\\":
                    j += 2
                    continue
                if d == "\n":
                    raise ValueError("unterminated regular expression")
                if d == "[":
                    in_class = True
                elif d == "]":
                    in_class = False
                elif d == "/" and not in_class:
                    break
                j += 1
            j += 1
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            i = j
            toks.append(Tok("re", src[start:i], start, i, tline, col))
            continue
        m = IDENT_RE.match(src, i)
        if m:
            i = m.end()
            toks.append(Tok("id", m.group(0), start, i, tline, col))
            continue
        m = NUM_RE.match(src, i)
        if m and m.end() > i:
            i = m.end()
            toks.append(Tok("num", m.group(0), start, i, tline, col))
            continue
        if c == "#" and i == 0 and src.startswith("#!"):
            j = src.find("\n")
            i = n if j < 0 else j
            continue
        for p in PUNCT3 + PUNCT2:
            if src.startswith(p, i):
                break
        else:
            p = c
        if src.startswith(">>>=", i):
            p = ">>>="
        i += len(p)
        if stack:
            if p == "{":
                stack[-1] += 1
            elif p == "}":
                stack[-1] -= 1
        toks.append(Tok("p", p, start, i, tline, col))
    if stack:
        raise ValueError("unterminated template literal")
    return toks


BLOCK_STARTERS = {"function", "class", "if", "for", "while", "try", "switch", "do", "{", "async"}
CONTINUE_AFTER_BRACE = {"else", "catch", "finally", "while"}
ENDS_EXPRESSION = ("id", "num", "str", "tpl", "re")


def split_statements(src):
    """[(start, end, tokens)] for each top-level statement of src."""
    toks = tokenize(src)
    out = []
    depth = 0
    first = 0
    k = 0
    while k < len(toks):
        t = toks[k]
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        end_here = False
        if t.kind == "p" and t.text in ("(", "[", "{"):
            depth += 1
        elif t.kind == "p" and t.text in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                raise ValueError("unbalanced brackets at line %d" % t.line)
            if depth == 0 and t.text == "}":
                head = toks[first].text
                if head in BLOCK_STARTERS and not (head == "async" and k > first and toks[first + 1].text != "function"):
                    if nxt is None or not (nxt.kind == "id" and nxt.text in CONTINUE_AFTER_BRACE) and nxt.text not in (".", ",", ")", ";", "?.", "(", "[") or (nxt.line > t.line and nxt.col == 0 and nxt.text in ("(", "[")):
                        end_here = True
        elif depth == 0 and t.kind == "p" and t.text == ";":
            if nxt is None or not (nxt.kind == "id" and nxt.text == "else"):
                end_here = True
        if not end_here and depth == 0 and nxt is not None and nxt.line > t.line and nxt.col == 0:
            if (t.kind in ENDS_EXPRESSION or t.text in (")", "]", "}")) and (
                    nxt.kind in ("id", "str") and nxt.text not in CONTINUE_AFTER_BRACE | {"in", "of", "instanceof"}):
                end_here = True
        if end_here or nxt is None:
            out.append((toks[first].start, t.end, toks[first:k + 1]))
            first = k + 1
        k += 1
    if depth != 0:
        raise ValueError("unbalanced brackets at end of file")
    return out
