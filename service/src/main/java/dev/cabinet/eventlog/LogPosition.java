package dev.cabinet.eventlog;

/**
 * Where a record sits in the log. Within a partition offsets grow with every record, and every event of one aggregate
 * lands in the same partition, so the offset orders an aggregate's events: projections compare it to skip what they
 * already applied. {@link #token()} is the consistency token a command answers with.
 */
public record LogPosition(String topic, int partition, long offset) {

    public String token() {
        return topic + ":" + partition + ":" + offset;
    }
}
