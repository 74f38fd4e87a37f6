package dev.cabinet.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects what one logger writes while a test runs (the JBoss LogManager is the JVM's java.util.logging). */
public final class LogLines extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogLines(Logger logger) {
        this.logger = logger;
    }

    public static LogLines of(Class<?> source) {
        LogLines lines = new LogLines(Logger.getLogger(source.getName()));
        lines.logger.addHandler(lines);
        return lines;
    }

    /** The formatted messages logged at {@code level} or above. */
    public List<String> atLeast(Level level) {
        return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue())
                .map(r -> r.getParameters() == null || r.getParameters().length == 0 ? r.getMessage()
                        : String.format(r.getMessage(), r.getParameters()))
                .toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
