package dev.cabinet.table;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/** The cheapest call that tells whether the store answers: a DescribeTable of the home table, which reads no item. */
@ApplicationScoped
@CallsAws(IamRole.PROJECTOR)
public class TableProbe {

    private final DynamoDbAsyncClient dynamo;
    private final String table;

    TableProbe(DynamoDbAsyncClient dynamo, TableConfig table) {
        this.dynamo = dynamo;
        this.table = table.name();
    }

    /**
     * One call that gives up after {@code timeout} (instead of the client's api-call-timeout): a probe of a store that
     * does not answer frees its connection soon, and the next probe goes out on a fresh one.
     */
    public CompletionStage<?> call(Duration timeout) {
        return dynamo.describeTable(b -> b.tableName(table)
                .overrideConfiguration(o -> o.apiCallTimeout(timeout).apiCallAttemptTimeout(timeout)));
    }
}
