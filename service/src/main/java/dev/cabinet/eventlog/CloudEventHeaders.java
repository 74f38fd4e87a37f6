package dev.cabinet.eventlog;

/**
 * The CloudEvents 1.0 Kafka protocol binding in binary mode, as Cabinet writes and reads it: attributes in {@code ce_}
 * headers, the event data as the JSON record value. {@code ce_actor} is Cabinet's extension attribute: who caused it.
 * The projector also reads the binding's structured mode ({@link #STRUCTURED}): the whole event as one JSON object.
 */
public final class CloudEventHeaders {

    public static final String SPEC_VERSION = "ce_specversion";
    public static final String ID = "ce_id";
    public static final String SOURCE = "ce_source";
    public static final String TYPE = "ce_type";
    public static final String TIME = "ce_time";
    public static final String SUBJECT = "ce_subject";
    public static final String ACTOR = "ce_actor";
    public static final String CONTENT_TYPE = "content-type";

    public static final String SPEC_VERSION_1_0 = "1.0";
    public static final String JSON = "application/json";
    /** The {@code content-type} of a record in structured mode; its value is the whole CloudEvent in JSON. */
    public static final String STRUCTURED = "application/cloudevents+json";

    private CloudEventHeaders() {
    }
}
