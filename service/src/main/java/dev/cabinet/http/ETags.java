package dev.cabinet.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.CounterChange;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Entity tags of single resources, derived from the read model: a hash of every attribute of the item the resource is
 * read from, so any change a projection makes to it (a new version, a counter) makes a new tag; but for the
 * exactly-once counting's bookkeeping on a counter ({@link CounterChange#isBookkeeping}) and the steps an event
 * recorded on its stream's root ({@code pendingSteps}), which change with nothing a reader sees (a token released
 * when a batch ends, a record written again by a redo), and would refuse an {@code If-Match} the body still matches.
 * Every event moves the stream's version on its root, so it still makes a new tag. Reads and the {@code If-Match}
 * check hash the same item the same way.
 */
public final class ETags {

    private ETags() {
    }

    /** The quoted strong entity tag of the item, e.g. {@code "Xk3…"}. */
    public static String of(Map<String, AttributeValue> item) {
        StringBuilder canonical = new StringBuilder();
        append(canonical, item);
        return hashed(canonical);
    }

    /**
     * The tag of a representation built from several items, in the order shown (a post with its newest comments): a
     * change to any of them, one more or one fewer makes a new tag. An embedded comment is rewritten by its author's
     * rename or erasure while the post item stays as it was, so the post's own tag would answer 304 to a changed page.
     */
    public static String of(List<Map<String, AttributeValue>> items) {
        StringBuilder canonical = new StringBuilder();
        for (Map<String, AttributeValue> item : items) {
            append(canonical, item);
            canonical.append("--\n");
        }
        return hashed(canonical);
    }

    /**
     * The tag of the item as others see it, without the fields only its owner is shown (a profile's email): a tag of
     * its own, so a cache never takes one representation for the other. It is derived from the whole item's tag, so it
     * changes with the item, and {@link #matches} takes it for an {@code If-Match} as it takes the whole item's.
     */
    public static String withoutOwnersFields(String etag) {
        return hashed(new StringBuilder(etag).append("\nwithout the owner's fields"));
    }

    private static void append(StringBuilder canonical, Map<String, AttributeValue> item) {
        new TreeMap<>(item).forEach((name, value) -> {
            if (!CounterChange.isBookkeeping(name) && !Attributes.PENDING_STEPS.equals(name)) {
                canonical.append(name).append('=').append(canonical(value)).append('\n');
            }
        });
    }

    private static String hashed(CharSequence canonical) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.toString()
                    .getBytes(StandardCharsets.UTF_8));
            return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 22) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sets come back in no particular order: their elements are sorted so one state has one tag. */
    private static String canonical(AttributeValue value) {
        if (value.hasSs()) {
            List<String> elements = new ArrayList<>(value.ss());
            elements.sort(null);
            return "SS" + elements;
        }
        if (value.hasNs()) {
            List<String> elements = new ArrayList<>(value.ns());
            elements.sort(null);
            return "NS" + elements;
        }
        return value.toString();
    }

    /**
     * Whether an {@code If-Match} header value matches the current tag ({@code null} when the resource does not
     * exist): {@code *} matches any existing resource, otherwise one of the listed strong tags must be equal to it or
     * to {@link #withoutOwnersFields its tag as others see it} (either names the same state of the item).
     */
    public static boolean matches(String ifMatch, String current) {
        return current != null && (lists(ifMatch, current) || lists(ifMatch, withoutOwnersFields(current)));
    }

    /**
     * Whether an {@code If-None-Match} header value names the representation about to be sent ({@code tag}): a cache
     * holds one representation, so only that one's tag (or {@code *}) answers 304. Compared weakly, as RFC 9110 asks
     * for this header: a proxy that weakened the tag ({@code W/"..."}) still gets its 304.
     */
    public static boolean holdsThisRepresentation(String ifNoneMatch, String tag) {
        return lists(ifNoneMatch, listed -> opaque(listed).equals(opaque(tag)));
    }

    /** The tag without its weakness indicator: what a weak comparison compares. */
    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }

    /** Whether the header's comma-separated list names {@code tag}, or is {@code *}. */
    private static boolean lists(String header, String tag) {
        return lists(header, tag::equals);
    }

    /** Whether the header's comma-separated list is {@code *} or has a tag that {@code names} accepts. */
    private static boolean lists(String header, Predicate<String> names) {
        for (String candidate : header.split(",")) {
            String listed = candidate.trim();
            if (listed.equals("*") || names.test(listed)) {
                return true;
            }
        }
        return false;
    }
}
