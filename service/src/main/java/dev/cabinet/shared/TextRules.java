package dev.cabinet.shared;

import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * Bounds and patterns for user text, shared by the request bodies so every endpoint refuses the same things. The
 * patterns go into the OpenAPI document as they are, so they are written in the syntax Java and ECMAScript share
 * (no {@code \p{...}} classes, no inline flags): clients validate with ECMAScript regular expressions.
 */
public final class TextRules {

    public static final int NAME_MAX = 100;
    public static final int EMAIL_MAX = 254;
    public static final int URL_MAX = 2048;
    public static final int TITLE_MAX = 200;
    public static final int BODY_MAX = 20_000;
    public static final int COMMENT_MAX = 2_000;
    public static final int DESCRIPTION_MAX = 1_000;
    public static final int CONTENT_TYPE_MAX = 255;

    /** No control characters, C0 or DEL (a line break in a name or title is never intended). */
    public static final String NO_CONTROL_CHARACTERS = "[^\\x00-\\x1F\\x7F]*";
    /** Text that may span lines: tabs and line breaks allowed, other control characters not. */
    public static final String MULTILINE_TEXT = "[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]*";
    /** A folder or file name: no control characters and no {@code /}, which separates the names of a path. */
    public static final String FOLDER_NAME = "[^\\x00-\\x1F\\x7F/]*";
    /**
     * A media type such as {@code application/pdf} or {@code text/csv; charset=utf-8} (RFC 6838 names, RFC 9110
     * parameters: a token, {@code =}, a token or a quoted string of printable ASCII). Nothing after the last parameter:
     * a header's trailing whitespace never reaches the object store, whose type must equal the declared one.
     */
    public static final String CONTENT_TYPE = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*"
            + "(?: *; *[A-Za-z0-9!#$%&'*+.^_`|~-]+=(?:[A-Za-z0-9!#$%&'*+.^_`|~-]+|\"[ !#-\\[\\]-~]*\"))*";
    /** An absolute http(s) URL without spaces or control characters (Java's {@code \s} is within 0x00-0x20). */
    public static final String HTTP_URL = "https?://[^\\x00-\\x20\\x7F]+";

    /**
     * The characters each pattern above that only excludes characters allows: a scan with this predicate over every
     * character gives the pattern's verdict (a surrogate is allowed alone or in a pair, as the pattern allows any code
     * point beyond its classes), without a regular expression engine on every title and body.
     */
    private static final Map<String, IntPredicate> ALLOWED = Map.of(
            NO_CONTROL_CHARACTERS, c -> c > 0x1F && c != 0x7F,
            MULTILINE_TEXT, c -> c > 0x1F ? c != 0x7F : c == '\t' || c == '\n' || c == '\r',
            FOLDER_NAME, c -> c > 0x1F && c != 0x7F && c != '/');

    /** The characters a pattern allows when it is one of the excluding patterns above; empty for any other pattern. */
    public static Optional<IntPredicate> allowedCharacters(String pattern) {
        return Optional.ofNullable(ALLOWED.get(pattern));
    }

    private TextRules() {
    }
}
