package dev.cabinet.eventlog;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The published form of an event record's field, which its JSON Schema states: the same bounds the record's
 * constructor checks through {@link EventFields} ({@code EventContractTest} proves the two agree on thousands of
 * mutated examples).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface FieldSchema {

    Kind value();

    /** The most characters of a text, or elements of a list. */
    int max() default 0;

    /** The fewest elements of a list. */
    int min() default 0;

    /** The values a {@link Kind#ONE_OF} field takes. */
    String[] allowed() default {};

    /** What each element of a {@link Kind#LIST} is. */
    String description() default "";

    /** The forms a field takes. */
    enum Kind {
        /** An id: 1 to 64 of A-Z, a-z, 0-9, _ and - ({@link EventFields#id}). */
        ID,
        /** An id, or null or absent. */
        OPTIONAL_ID,
        /** A UTC instant with three fractional digits ({@link EventFields#timestamp}). */
        TIMESTAMP,
        /** A UTC date, yyyy-MM-dd. */
        DATE,
        /** Required text of at most {@code max} characters ({@link EventFields#text}). */
        TEXT,
        /** Text of at most {@code max} characters, or null or absent ({@link EventFields#optionalText}). */
        OPTIONAL_TEXT,
        /** One of {@code allowed} ({@link EventFields#oneOf}). */
        ONE_OF,
        /** A whole number from 0 to {@link EventFields#MAX_COUNT} ({@link EventFields#count}). */
        COUNT,
        /** An amount as a decimal string with exactly two decimals, from 0.00 to 1000000000.00. */
        DECIMAL,
        /** An amount as a JSON number with at most two decimals, from 0 to 1000000000 (superseded by DECIMAL). */
        AMOUNT,
        /** A percentage, a JSON number from 0 to 100. */
        PERCENT,
        /** A list of {@code min} to {@code max} records, each described by its own {@link FieldSchema}s. */
        LIST
    }
}
