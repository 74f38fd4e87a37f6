package dev.cabinet.table;

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

    /** One call; it completes when the store answered and fails when it did not. */
    public CompletionStage<?> call() {
        return dynamo.describeTable(b -> b.tableName(table));
    }
}
