package dev.cabinet.table;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/** The table writer over another client than the application's: the capacity model's store (dev.cabinet.capacity). */
public final class ModelTables {

    private ModelTables() {
    }

    /** The source of the store call being made on this thread ({@link StoreCallSource}), for the model's store. */
    public static String currentSource() {
        return StoreCallSource.current();
    }

    /** The real writer, its meters kept apart from the application's. */
    public static TableWriter writer(DynamoDbAsyncClient client, TableConfig config) {
        return new TableWriter(client, config, new SimpleMeterRegistry());
    }
}
