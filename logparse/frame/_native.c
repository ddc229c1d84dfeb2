/* logparse.frame._native: the fast lane's shape test and conversions, in C (optional; fastlane.py reads the same
 * lines the same way without it).
 *
 * A learned shape (fastlane.LaneShape) is literal text with a group where each value was:
 *
 *     L0 (G1) L1 (G2) L2 ... (Gn) Ln
 *
 * each group `[^c\n]*`, c the first character of the literal after it (`[^\n]*` for a last group with no text
 * after it), or `\d+` for torchrun's rank. Such a regex has one way to match a line at most: a group `[^c]*`
 * followed by a literal that starts with c ends at the first c after it, and `\d+` followed by "]" ends at the
 * first character that is no digit. `fit` walks a line that way with memchr and memcmp, and converts each
 * group's text as fastlane._column would (int(), float(), an ISO timestamp through numpy), writing one code a
 * line:
 *
 *     0  the shape's regex does not fullmatch the line
 *     1  it does, and every group converted: the values are in the line's row of `values`
 *     2  not sure: a line with a character past ASCII, or a group whose text is not in the strict forms below;
 *        the caller asks the regex and converts the Python way, as it does without this module
 *
 * A line is only ever answered 0 or 1 when the answer cannot differ from the regex's and Python's: the strict
 * forms are ASCII text that int(), float() and numpy read one way (no underscore, no "nan"/"inf", no other
 * blank than space and tab around a number, an int of at most 18 digits, a finite float, a valid date of years
 * 1-9999). Floats of at most 15 significant digits and a power of ten up to 22 take Clinger's fast path (two
 * exact doubles, one correctly rounded operation); others go through PyOS_string_to_double, float()'s own
 * parser. Both are correctly rounded, as float() is.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { NO = 0, YES = 1, UNSURE = 2 };

static const double POW10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* [ \t]* trimmed off both ends of s[0:n] */
static void trim(const char **s, Py_ssize_t *n) {
    while (*n > 0 && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t')) (*n)--;
}

/* int(text) for [ \t]*[+-]?[0-9]{1,18}[ \t]*; UNSURE for any other text */
static int to_int(const char *s, Py_ssize_t n, int64_t *out) {
    trim(&s, &n);
    int neg = 0;
    if (n > 0 && (*s == '+' || *s == '-')) {
        neg = *s == '-';
        s++;
        n--;
    }
    if (n < 1 || n > 18) return UNSURE;
    int64_t v = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!is_digit(s[i])) return UNSURE;
        v = v * 10 + (s[i] - '0');
    }
    *out = neg ? -v : v;
    return YES;
}

/* float(text) for [ \t]*[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?[ \t]*, finite; UNSURE otherwise */
static int to_float(const char *s, Py_ssize_t n, double *out) {
    trim(&s, &n);
    const char *p = s, *end = s + n;
    int neg = 0;
    if (p < end && (*p == '+' || *p == '-')) {
        neg = *p == '-';
        p++;
    }
    uint64_t mant = 0;
    int digits = 0;      /* significant digits taken into mant (leading zeros are not) */
    int any = 0;         /* digits seen in the mantissa */
    int exp10 = 0;       /* the power of ten mant is scaled by */
    int exact = 1;       /* mant holds every significant digit */
    for (; p < end && is_digit(*p); p++) {
        any = 1;
        if (mant == 0 && *p == '0') continue;
        if (digits < 19) {
            mant = mant * 10 + (uint64_t)(*p - '0');
            digits++;
        } else {
            exact = 0;
        }
    }
    if (p < end && *p == '.') {
        p++;
        for (; p < end && is_digit(*p); p++) {
            any = 1;
            if (mant == 0 && *p == '0') {
                exp10--;
                continue;
            }
            if (digits < 19) {
                mant = mant * 10 + (uint64_t)(*p - '0');
                digits++;
                exp10--;
            } else {
                exact = 0;
            }
        }
    }
    if (!any) return UNSURE;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int eneg = 0;
        if (p < end && (*p == '+' || *p == '-')) {
            eneg = *p == '-';
            p++;
        }
        if (p >= end) return UNSURE;
        int e = 0;
        for (; p < end && is_digit(*p); p++) {
            if (e < 100000) e = e * 10 + (*p - '0');
        }
        exp10 += eneg ? -e : e;
    }
    if (p != end) return UNSURE;
    double v;
    if (exact && digits <= 15 && exp10 >= -22 && exp10 <= 22) {
        v = (double)mant; /* exact: below 2**53 */
        v = exp10 < 0 ? v / POW10[-exp10] : v * POW10[exp10];
        if (neg) v = -v;
    } else {
        char buf[128];
        if (n >= (Py_ssize_t)sizeof(buf)) return UNSURE;
        memcpy(buf, s, (size_t)n);
        buf[n] = '\0';
        char *stop = NULL;
        v = PyOS_string_to_double(buf, &stop, NULL);
        if (v == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return UNSURE;
        }
        if (stop != buf + n) return UNSURE;
    }
    if (!isfinite(v)) return UNSURE;
    *out = v;
    return YES;
}

static int two(const char *s) { return is_digit(s[0]) && is_digit(s[1]) ? (s[0] - '0') * 10 + (s[1] - '0') : -1; }

/* days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil) */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* microseconds since the epoch of YYYY-MM-DD HH:MM:SS[.ffffff] (fastlane._ISO, as numpy's datetime64[us]) */
static int to_micros(const char *s, Py_ssize_t n, int64_t *out) {
    if (n != 19 && n != 26) return UNSURE;
    if (s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':') return UNSURE;
    int hi = two(s), lo = two(s + 2);
    int mon = two(s + 5), day = two(s + 8), hh = two(s + 11), mm = two(s + 14), ss = two(s + 17);
    if (hi < 0 || lo < 0 || mon < 1 || mon > 12 || day < 1 || hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 ||
        ss > 59)
        return UNSURE;
    int year = hi * 100 + lo;
    if (year < 1) return UNSURE;
    static const int DAYS[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (day > DAYS[mon - 1] + (mon == 2 && leap)) return UNSURE;
    int64_t frac = 0;
    if (n == 26) {
        if (s[19] != '.') return UNSURE;
        for (int i = 20; i < 26; i++) {
            if (!is_digit(s[i])) return UNSURE;
            frac = frac * 10 + (s[i] - '0');
        }
    }
    int64_t secs = days_from_civil(year, mon, day) * 86400 + hh * 3600 + mm * 60 + ss;
    *out = secs * 1000000 + frac;
    return YES;
}

/* fit(lines, where, literals, kinds, codes, values) -> the number of lines answered YES
 *
 * lines     a list of str
 * where     int64 buffer: the indexes in `lines` to try
 * literals  a tuple of n + 1 ASCII str: the text before, between and after the n groups
 * kinds     bytes of n: each group's form and conversion:
 *             'r' \d+, int      'i' int()     'f' float()     't' ISO timestamp (microseconds)     '-' kept as text
 * codes     writable uint8 buffer of len(where): NO, YES or UNSURE per line (see the top of the file)
 * values    writable int64 buffer of len(where) * n: a YES line's values, a row each (a float's bits as int64)
 * again     (optional) writable uint8 buffer of len(where): for a shape of torchrun's prefix (kinds starting with
 *           'r'), whether the line holds its first literal "[<role>" again after its first character (another
 *           rank's output on the line: fastlane.own_text); 0 for a line answered UNSURE, whose caller looks itself
 */
static PyObject *fit(PyObject *self, PyObject *args) {
    PyObject *lines, *literals;
    Py_buffer where, kinds, codes, values, again = {0};
    if (!PyArg_ParseTuple(args, "O!y*O!y*w*w*|w*", &PyList_Type, &lines, &where, &PyTuple_Type, &literals, &kinds,
                          &codes, &values, &again))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t ngroups = kinds.len, nwhere = where.len / (Py_ssize_t)sizeof(int64_t);
    const char *kind = (const char *)kinds.buf;
    if (PyTuple_GET_SIZE(literals) != ngroups + 1 || ngroups > 64) {
        PyErr_SetString(PyExc_ValueError, "fit: one literal more than groups (at most 64) is needed");
        goto done;
    }
    if (codes.len < nwhere || values.len < nwhere * ngroups * (Py_ssize_t)sizeof(int64_t) ||
        (again.buf != NULL && again.len < nwhere)) {
        PyErr_SetString(PyExc_ValueError, "fit: codes or values too short");
        goto done;
    }
    const char *lit[65];
    Py_ssize_t litlen[65];
    for (Py_ssize_t g = 0; g <= ngroups; g++) {
        PyObject *text = PyTuple_GET_ITEM(literals, g);
        if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text)) {
            PyErr_SetString(PyExc_ValueError, "fit: the literals are ASCII str");
            goto done;
        }
        lit[g] = (const char *)PyUnicode_DATA(text);
        litlen[g] = PyUnicode_GET_LENGTH(text);
    }
    for (Py_ssize_t g = 0; g < ngroups; g++) {
        if (kind[g] == '\0' || !strchr("rift-", kind[g]) || (g < ngroups - 1 && litlen[g + 1] == 0) ||
            (kind[g] == 'r' && (litlen[g + 1] == 0 || is_digit(lit[g + 1][0])))) {
            PyErr_SetString(PyExc_ValueError, "fit: a group's kind is one of r, i, f, t, -; no literal but the last "
                                              "is empty; a digit group's next literal starts with no digit");
            goto done;
        }
    }
    const int64_t *at = (const int64_t *)where.buf;
    uint8_t *code = (uint8_t *)codes.buf;
    uint8_t *tagged = again.buf != NULL && ngroups > 0 && kind[0] == 'r' ? (uint8_t *)again.buf : NULL;
    if (again.buf != NULL) memset(again.buf, 0, (size_t)nwhere);
    int64_t *row = (int64_t *)values.buf;
    Py_ssize_t nlines = PyList_GET_SIZE(lines), yes = 0;
    for (Py_ssize_t w = 0; w < nwhere; w++, row += ngroups) {
        if (at[w] < 0 || at[w] >= nlines) {
            PyErr_SetString(PyExc_IndexError, "fit: a line index out of range");
            goto done;
        }
        PyObject *line = PyList_GET_ITEM(lines, at[w]);
        if (!PyUnicode_Check(line) || !PyUnicode_IS_ASCII(line)) {
            code[w] = UNSURE;
            continue;
        }
        const char *s = (const char *)PyUnicode_DATA(line);
        const Py_ssize_t n = PyUnicode_GET_LENGTH(line);
        int answer = YES;
        Py_ssize_t pos = 0;
        if (memchr(s, '\n', (size_t)n) != NULL) answer = UNSURE; /* (a list of lines holds none) */
        if (answer == YES && (litlen[0] > n || memcmp(s, lit[0], (size_t)litlen[0]) != 0)) answer = NO;
        pos = litlen[0];
        for (Py_ssize_t g = 0; answer != NO && g < ngroups; g++) {
            const Py_ssize_t start = pos;
            Py_ssize_t stop;
            const char *next = lit[g + 1];
            const Py_ssize_t nextlen = litlen[g + 1];
            if (kind[g] == 'r') {
                stop = start;
                while (stop < n && is_digit(s[stop])) stop++;
                if (stop == start) {
                    answer = NO;
                    break;
                }
            } else if (nextlen == 0) {
                stop = n; /* the last group, with no text after it: the rest of the line */
            } else {
                const char *c = memchr(s + start, next[0], (size_t)(n - start));
                if (c == NULL) {
                    answer = NO;
                    break;
                }
                stop = c - s;
            }
            if (nextlen > n - stop || memcmp(s + stop, next, (size_t)nextlen) != 0) {
                answer = NO;
                break;
            }
            pos = stop + nextlen;
            if (answer != YES) continue; /* (UNSURE: the rest only decides between NO and UNSURE) */
            const char *text = s + start;
            const Py_ssize_t len = stop - start;
            int got = YES;
            switch (kind[g]) {
            case 'r':
                got = len <= 18 ? to_int(text, len, &row[g]) : UNSURE;
                break;
            case 'i':
                got = to_int(text, len, &row[g]);
                break;
            case 'f': {
                double v;
                got = to_float(text, len, &v);
                if (got == YES) memcpy(&row[g], &v, sizeof v);
                break;
            }
            case 't':
                got = to_micros(text, len, &row[g]);
                break;
            default:
                break;
            }
            if (got != YES) answer = UNSURE;
        }
        if (answer != NO && pos != n) answer = NO;
        code[w] = (uint8_t)answer;
        if (tagged != NULL && answer == YES && n > 1)
            tagged[w] = memmem(s + 1, (size_t)(n - 1), lit[0], (size_t)litlen[0]) != NULL;
        yes += answer == YES;
    }
    result = PyLong_FromSsize_t(yes);
done:
    PyBuffer_Release(&where);
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&values);
    if (again.buf != NULL) PyBuffer_Release(&again);
    return result;
}

/* scan(block) -> (longest, control, lt, remnant): what a range's bytes hold, in one pass (chunks._read_task)
 *
 * longest   the bytes of its longest line (between newlines): no line of its text has more characters
 * control   whether it holds a carriage return or an escape
 * lt        whether it holds a "<"
 * remnant   whether its text holds a colour code's remnant, reader._MAYBE_REMNANT `\[[\d;]*m`: 0 no, 1 yes, 2
 *           not sure (a byte past ASCII right after "[" and its ASCII digits and semicolons: \d also matches
 *           other scripts' digits; the caller asks the regex)
 *
 * Decoded with errors="replace", a byte below 0x80 is always its own character, so these are the text's. */
static PyObject *scan(PyObject *self, PyObject *args) {
    Py_buffer block;
    if (!PyArg_ParseTuple(args, "y*", &block)) return NULL;
    const char *s = (const char *)block.buf, *end = s + block.len;
    Py_ssize_t longest = 0;
    for (const char *at = s; at < end;) {
        const char *nl = memchr(at, '\n', (size_t)(end - at));
        const char *stop = nl != NULL ? nl : end;
        if (stop - at > longest) longest = stop - at;
        at = stop + 1;
    }
    int control = memchr(s, '\r', (size_t)block.len) != NULL || memchr(s, '\x1b', (size_t)block.len) != NULL;
    int lt = memchr(s, '<', (size_t)block.len) != NULL;
    int remnant = 0;
    for (const char *at = s; at < end && remnant != 1;) {
        const char *open = memchr(at, '[', (size_t)(end - at));
        if (open == NULL) break;
        const char *p = open + 1;
        while (p < end && (is_digit(*p) || *p == ';')) p++;
        if (p < end && *p == 'm')
            remnant = 1;
        else if (p < end && (unsigned char)*p >= 0x80)
            remnant = 2;
        at = open + 1;
    }
    PyBuffer_Release(&block);
    return Py_BuildValue("(nOOi)", longest, control ? Py_True : Py_False, lt ? Py_True : Py_False, remnant);
}

/* '%.<precision>g' % v written at `out` without Python's formatter, for a finite v whose text has an exponent
 * from -4 to precision - 1 (no exponent then) and that a decimal of at most `precision` significant digits
 * (precision <= 15) rounds to: the common case of values a log printed. Returns the length written, or 0 (the
 * caller formats it the slow way). Why it is '%.<p>g': D = m / 10^k, m < 10^p, is the decimal to write when
 * (double)m / 10^k == v (10^k and m exact doubles, the division correctly rounded, so D rounds to v): D lies
 * within half an ulp of v, and the next decimal of p digits lies at least 10^(X-p+1) away (X, v's decimal
 * exponent), much more than an ulp (2.2e-16 x 10^(X+1)) for p <= 15, so D is v rounded to p digits. %g then
 * drops trailing zeros and, for -4 <= X < p, writes no exponent. */
static Py_ssize_t g_text(double v, int precision, char *out) {
    if (precision > 15 || v != v || v == 0.0) return 0; /* (0 and -0: the slow way, "0" / "-0") */
    double a = fabs(v);
    if (!(a >= 1e-4 && a < POW10[precision])) return 0;
    int x = 0; /* a's decimal exponent, near enough: k is corrected below */
    while (x < 22 && a >= POW10[x + 1]) x++;
    if (a < 1.0) {
        x = -1;
        while (x > -5 && a * POW10[-x] < 1.0) x--;
    }
    int k = precision - 1 - x;
    if (k < 0 || k > 22) return 0;
    double scaled = a * POW10[k];
    if (!(scaled < 9007199254740992.0)) return 0;
    int64_t m = (int64_t)llround(scaled);
    int64_t limit = (int64_t)POW10[precision];
    if (m >= limit) {
        if (k == 0) return 0;
        k--;
        m = (int64_t)llround(a * POW10[k]);
    }
    if (m <= 0 || m >= limit || (double)m / POW10[k] != a) return 0;
    while (k > 0 && m % 10 == 0) {
        m /= 10;
        k--;
    }
    char digits[24];
    int n = 0;
    for (int64_t u = m; u; u /= 10) digits[n++] = (char)('0' + u % 10);
    const int exponent = n - 1 - k; /* of the decimal written */
    if (exponent < -4 || exponent >= precision) return 0;
    Py_ssize_t len = 0;
    if (v < 0) out[len++] = '-';
    if (k <= 0) { /* a whole number: its digits, then zeros */
        while (n) out[len++] = digits[--n];
        for (int z = 0; z < -k; z++) out[len++] = '0';
    } else if (n > k) { /* digits before and after the point */
        while (n > k) out[len++] = digits[--n];
        out[len++] = '.';
        while (n) out[len++] = digits[--n];
    } else { /* 0.000ddd */
        out[len++] = '0';
        out[len++] = '.';
        for (int z = 0; z < k - n; z++) out[len++] = '0';
        while (n) out[len++] = digits[--n];
    }
    return len;
}

/* texts(values, precision) -> list of str: each float64 of `values` as '%.<precision>g' % value makes it (the same
 * function, PyOS_double_to_string), "" for NaN (steps.csv's float columns: outputs._csv_texts) */
static PyObject *texts(PyObject *self, PyObject *args) {
    Py_buffer values;
    int precision;
    if (!PyArg_ParseTuple(args, "y*i", &values, &precision)) return NULL;
    const Py_ssize_t n = values.len / (Py_ssize_t)sizeof(double);
    const double *v = (const double *)values.buf;
    PyObject *out = PyList_New(n), *empty = NULL;
    if (out == NULL) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text;
        if (v[i] != v[i]) {
            if (empty == NULL && (empty = PyUnicode_FromStringAndSize("", 0)) == NULL) goto fail;
            Py_INCREF(empty);
            text = empty;
        } else {
            char quick[32];
            const Py_ssize_t len = g_text(v[i], precision, quick);
            if (len) {
                text = PyUnicode_FromStringAndSize(quick, len);
            } else {
                char *chars = PyOS_double_to_string(v[i], 'g', precision, 0, NULL);
                if (chars == NULL) goto fail;
                text = PyUnicode_FromString(chars);
                PyMem_Free(chars);
            }
            if (text == NULL) goto fail;
        }
        PyList_SET_ITEM(out, i, text);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    Py_XDECREF(empty);
    PyBuffer_Release(&values);
    return out;
}

/* rows(fields, end) -> str or None: "".join(",".join(row) + end for row in zip(*fields)), each of `fields` a list
 * of str as long as the others, or a column of numbers written as steps.csv writes them: a tuple ("f", float64
 * values, precision), each '%.<precision>g' % value (PyOS_double_to_string, as `texts`), "" for NaN; or ("i", int64
 * values), each str(value); or ("t", int64 microseconds since 1970), each as numpy's datetime_as_string(unit="us")
 * + "+00:00" (years 1970-9999; int64's least, NaT, as ""). None when a text is not ASCII or not a str, or a field is neither (the caller joins
 * them itself) (a str subclass, a phase enum, joined by its text as str.join joins it) */
/* the texts of floats formatted the slow way (PyOS_double_to_string: 0.1 us each), by the float's bits, one
 * entry a slot: a derived column (tokens/s of a step time printed to 0.1 ms) repeats a few thousand values */
enum { SEEN_BITS = 13 };
typedef struct {
    uint64_t bits;
    char len; /* 0: empty */
    char text[31];
} Seen;

typedef struct {
    PyObject *texts;   /* a list of str, or NULL */
    Py_buffer numbers; /* or float64 / int64 values */
    char kind;         /* 's', 'f', 'i', 't' */
    int precision;
    Seen *seen;        /* ('f') the slow texts met, made when the first is */
} Field;

static Py_ssize_t int_text(int64_t v, char *out) {
    char digits[24];
    int k = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        digits[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    Py_ssize_t len = 0;
    if (v < 0) out[len++] = '-';
    while (k) out[len++] = digits[--k];
    return len;
}

/* microseconds since 1970 as numpy's datetime_as_string(unit="us") + "+00:00" writes them (32 characters), for
 * 1970-01-01 to 9999-12-31 (0 returned outside: the caller's); days to a date by H. Hinnant's civil_from_days */
static const int64_t US_PER_DAY = 86400000000LL, US_END = 253402300800000000LL; /* (10000-01-01) */

static void put2(char *at, int64_t v) {
    at[0] = (char)('0' + v / 10);
    at[1] = (char)('0' + v % 10);
}

static Py_ssize_t iso_text(int64_t us, char *out) {
    if (us < 0 || us >= US_END) return 0;
    const int64_t days = us / US_PER_DAY, of_day = us % US_PER_DAY;
    const int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    const int64_t day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9;
    const int64_t year = yoe + era * 400 + (month <= 2);
    const int64_t second = of_day / 1000000, micro = of_day % 1000000;
    put2(out, year / 100);
    put2(out + 2, year % 100);
    out[4] = '-';
    put2(out + 5, month);
    out[7] = '-';
    put2(out + 8, day);
    out[10] = 'T';
    put2(out + 11, second / 3600);
    out[13] = ':';
    put2(out + 14, second / 60 % 60);
    out[16] = ':';
    put2(out + 17, second % 60);
    out[19] = '.';
    put2(out + 20, micro / 10000);
    put2(out + 22, micro / 100 % 100);
    put2(out + 24, micro % 100);
    memcpy(out + 26, "+00:00", 6);
    return 32;
}

static void release_fields(Field *fs, Py_ssize_t k) {
    for (Py_ssize_t f = 0; f < k; f++) {
        if (fs[f].kind != 's' && fs[f].numbers.obj != NULL) PyBuffer_Release(&fs[f].numbers);
        PyMem_Free(fs[f].seen);
    }
    PyMem_Free(fs);
}

/* a float's text the slow way, from the field's slots when it was met before; its length, or -1 (an error set) */
static Py_ssize_t slow_text(Field *field, double v, char *out) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    Seen *slot = NULL;
    if (field->seen == NULL) field->seen = PyMem_Calloc((size_t)1 << SEEN_BITS, sizeof(Seen));
    if (field->seen != NULL) {
        slot = &field->seen[(bits * 0x9E3779B97F4A7C15ULL) >> (64 - SEEN_BITS)];
        if (slot->len && slot->bits == bits) {
            memcpy(out, slot->text, (size_t)slot->len);
            return slot->len;
        }
    }
    char *chars = PyOS_double_to_string(v, 'g', field->precision, 0, NULL);
    if (chars == NULL) return -1;
    const size_t len = strlen(chars);
    memcpy(out, chars, len);
    PyMem_Free(chars);
    if (slot != NULL && len < sizeof slot->text) {
        slot->bits = bits;
        slot->len = (char)len;
        memcpy(slot->text, out, len);
    }
    return (Py_ssize_t)len;
}

static PyObject *rows(PyObject *self, PyObject *args) {
    PyObject *fields, *end;
    if (!PyArg_ParseTuple(args, "O!U", &PyList_Type, &fields, &end)) return NULL;
    const Py_ssize_t k = PyList_GET_SIZE(fields);
    if (k == 0 || !PyUnicode_IS_ASCII(end)) Py_RETURN_NONE;
    Field *fs = PyMem_Calloc((size_t)k, sizeof(Field));
    if (fs == NULL) return PyErr_NoMemory();
    Py_ssize_t n = -1, total = 0;
    for (Py_ssize_t f = 0; f < k; f++) {
        PyObject *column = PyList_GET_ITEM(fields, f);
        Py_ssize_t len;
        if (PyList_Check(column)) {
            fs[f].kind = 's';
            fs[f].texts = column;
            len = PyList_GET_SIZE(column);
            for (Py_ssize_t i = 0; i < len; i++) {
                PyObject *text = PyList_GET_ITEM(column, i);
                if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text)) goto none; /* (a str enum: its text, as join) */
                total += PyUnicode_GET_LENGTH(text);
            }
        } else {
            const char *kind;
            PyObject *values;
            int precision = 0;
            if (!PyTuple_Check(column) || !PyArg_ParseTuple(column, "sO|i", &kind, &values, &precision)) {
                PyErr_Clear();
                goto none;
            }
            if ((kind[0] != 'f' && kind[0] != 'i' && kind[0] != 't') || kind[1] != '\0') goto none;
            if (PyObject_GetBuffer(values, &fs[f].numbers, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
                PyErr_Clear();
                goto none;
            }
            fs[f].kind = kind[0];
            fs[f].precision = precision;
            len = fs[f].numbers.len / 8;
            /* at most: "-9223372036854775808", "-1.2345678901234567e-308" (precision <= 17), an ISO stamp's 32 */
            total += len * (kind[0] == 't' ? 32 : 24);
            const char *format = fs[f].numbers.format ? fs[f].numbers.format : "B";
            const int as_double = strcmp(format, "d") == 0, as_int64 = strcmp(format, "l") == 0 || strcmp(format, "q") == 0;
            if (fs[f].numbers.itemsize != 8 || !(kind[0] == 'f' ? as_double : as_int64)) goto none;
            if (kind[0] == 't') { /* every stamp in range, or NaT (int64's least: an empty field) */
                const int64_t *us = (const int64_t *)fs[f].numbers.buf;
                for (Py_ssize_t i = 0; i < len; i++)
                    if (us[i] != INT64_MIN && (us[i] < 0 || us[i] >= US_END)) goto none;
            }
            if (kind[0] == 'f' && (precision < 1 || precision > 17)) goto none;
        }
        if (n >= 0 && len != n) goto none;
        n = len;
    }
    const Py_ssize_t endlen = PyUnicode_GET_LENGTH(end);
    total += n * (k - 1 + endlen);
    char *buf = PyMem_Malloc((size_t)total + 1);
    if (buf == NULL) {
        release_fields(fs, k);
        return PyErr_NoMemory();
    }
    char *at = buf;
    const char *tail = (const char *)PyUnicode_DATA(end);
    for (Py_ssize_t i = 0; i < n; i++) {
        for (Py_ssize_t f = 0; f < k; f++) {
            if (f) *at++ = ',';
            if (fs[f].kind == 's') {
                PyObject *text = PyList_GET_ITEM(fs[f].texts, i);
                const Py_ssize_t len = PyUnicode_GET_LENGTH(text);
                memcpy(at, PyUnicode_DATA(text), (size_t)len);
                at += len;
            } else if (fs[f].kind == 'i') {
                at += int_text(((const int64_t *)fs[f].numbers.buf)[i], at);
            } else if (fs[f].kind == 't') {
                const int64_t us = ((const int64_t *)fs[f].numbers.buf)[i];
                if (us != INT64_MIN) at += iso_text(us, at);
            } else {
                const double v = ((const double *)fs[f].numbers.buf)[i];
                if (v != v) continue;
                const Py_ssize_t quick = g_text(v, fs[f].precision, at);
                if (quick) {
                    at += quick;
                    continue;
                }
                const Py_ssize_t len = slow_text(&fs[f], v, at);
                if (len < 0) {
                    PyMem_Free(buf);
                    release_fields(fs, k);
                    return NULL;
                }
                at += len;
            }
        }
        memcpy(at, tail, (size_t)endlen);
        at += endlen;
    }
    release_fields(fs, k);
    PyObject *out = PyUnicode_New(at - buf, 127);
    if (out != NULL) memcpy(PyUnicode_DATA(out), buf, (size_t)(at - buf));
    PyMem_Free(buf);
    return out;
none:
    release_fields(fs, k);
    Py_RETURN_NONE;
}

/* medians(values, window) -> float64 array: pandas' Series(values).rolling(window, center=True,
 * min_periods=1).median() for an odd window and values with no NaN (phases.regimes' running median of a run's
 * log speed): at row i the median of rows i - window // 2 to i + window // 2 that exist, the mean of the two
 * middle values, (a + b) / 2 as pandas takes it, for an even count at the ends. The window's values are kept
 * sorted: each row one value out and one in, found by bisection. */
static Py_ssize_t bisect(const double *sorted, Py_ssize_t n, double v) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        const Py_ssize_t mid = (lo + hi) / 2;
        if (sorted[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static PyObject *medians(PyObject *self, PyObject *args) {
    Py_buffer values, out;
    Py_ssize_t window;
    if (!PyArg_ParseTuple(args, "y*nw*", &values, &window, &out)) return NULL;
    const Py_ssize_t n = values.len / (Py_ssize_t)sizeof(double);
    const double *v = (const double *)values.buf;
    double *res = (double *)out.buf;
    double *sorted = NULL;
    if (window < 1 || window % 2 == 0 || out.len != values.len) {
        PyErr_SetString(PyExc_ValueError, "an odd window and an output as long as the values");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (v[i] != v[i]) {
            PyErr_SetString(PyExc_ValueError, "a NaN value");
            goto done;
        }
    const Py_ssize_t h = window / 2;
    sorted = PyMem_Malloc((size_t)(window + 1) * sizeof(double));
    if (sorted == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t j = 0; j < h && j < n; j++) { /* the first window's right half */
        const Py_ssize_t at = bisect(sorted, count, v[j]);
        memmove(sorted + at + 1, sorted + at, (size_t)(count - at) * sizeof(double));
        sorted[at] = v[j];
        count++;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const Py_ssize_t in = i + h, gone = i - h - 1;
        if (in < n) {
            const Py_ssize_t at = bisect(sorted, count, v[in]);
            memmove(sorted + at + 1, sorted + at, (size_t)(count - at) * sizeof(double));
            sorted[at] = v[in];
            count++;
        }
        if (gone >= 0) {
            const Py_ssize_t at = bisect(sorted, count, v[gone]); /* (an equal value: any of them) */
            memmove(sorted + at, sorted + at + 1, (size_t)(count - at - 1) * sizeof(double));
            count--;
        }
        res[i] = count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2.0;
    }
done:
    PyMem_Free(sorted);
    PyBuffer_Release(&values);
    PyBuffer_Release(&out);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef METHODS[] = {
    {"medians", medians, METH_VARARGS, "medians(values, window, out): a centred running median into out"},
    {"rows", rows, METH_VARARGS, "rows(fields, end) -> the CSV rows of columns of ASCII texts or numbers, or None"},
    {"texts", texts, METH_VARARGS, "texts(float64 values, precision) -> ['%.<precision>g' % v, '' for NaN]"},
    {"fit", fit, METH_VARARGS, "fit(lines, where, literals, kinds, codes, values) -> lines that fit and convert"},
    {"scan", scan, METH_VARARGS, "scan(block) -> (longest line's bytes, CR or ESC, '<', colour remnant 0/1/2)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_native", "The fast lane's shape test, in C.", -1,
                                    METHODS};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&MODULE); }
