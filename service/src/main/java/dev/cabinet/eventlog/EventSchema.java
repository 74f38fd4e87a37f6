package dev.cabinet.eventlog;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What an event record's published JSON Schema says beyond its fields ({@link FieldSchema}): its description, the field
 * its records are keyed by, and for a superseded or incompatible version, why. The schemas under
 * {@code contract/events/} are generated from these and the records' example ({@code EXAMPLE}), never written by hand
 * ({@code EventContractTest} rewrites a stale one and fails).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface EventSchema {

    /** What happened, for the schema's and the AsyncAPI message's description. */
    String description();

    /** The field whose value is the record's Kafka key ({@code x-cabinet-key}: the aggregate the event belongs to). */
    String key();

    /** Superseded by a later version that producers write instead (still read). */
    boolean deprecated() default false;

    /** A change that breaks compatibility with the version before, allowed on purpose: the reason (none: compatible). */
    String incompatibleBecause() default "";
}
