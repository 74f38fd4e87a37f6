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

    /** The position a token names; only Cabinet's own topics are positions anyone can wait for. */
    public static LogPosition parse(String token) {
        String[] parts = token == null ? new String[0] : token.trim().split(":");
        if (parts.length != 3 || !Topics.ALL.contains(parts[0])) {
            throw new IllegalArgumentException("is not a position this service gave out (topic:partition:offset)");
        }
        try {
            int partition = Integer.parseInt(parts[1]);
            long offset = Long.parseLong(parts[2]);
            if (partition < 0 || offset < 0) {
                throw new NumberFormatException();
            }
            return new LogPosition(parts[0], partition, offset);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("has no valid partition and offset (topic:partition:offset)");
        }
    }
}
