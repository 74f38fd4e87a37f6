package dev.cabinet.http;

/** Bounds and patterns for user text, shared by the request bodies so every endpoint refuses the same things. */
public final class TextRules {

    public static final int NAME_MAX = 100;
    public static final int EMAIL_MAX = 254;
    public static final int URL_MAX = 2048;
    public static final int TITLE_MAX = 200;
    public static final int BODY_MAX = 20_000;
    public static final int COMMENT_MAX = 2_000;
    public static final int DESCRIPTION_MAX = 1_000;
    public static final int CONTENT_TYPE_MAX = 255;

    /** No control characters (a line break in a name or title is never intended). */
    public static final String NO_CONTROL_CHARACTERS = "[^\\p{Cntrl}]*";
    /** Text that may span lines: tabs and line breaks allowed, other control characters not. */
    public static final String MULTILINE_TEXT = "(?s)[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]*";
    /** A folder or file name: no control characters and no {@code /}, which separates the names of a path. */
    public static final String FOLDER_NAME = "[^\\p{Cntrl}/]*";
    /** A media type such as {@code application/pdf} (RFC 6838 names, optional parameters). */
    public static final String CONTENT_TYPE = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(;[^\\p{Cntrl}]*)?";
    /** An absolute http(s) URL without spaces or control characters. */
    public static final String HTTP_URL = "https?://[^\\s\\p{Cntrl}]+";

    private TextRules() {
    }
}
