package dev.cabinet.table;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * The operator's access to the store, for blue/green rebuilds: consistent reads of any table's items and the
 * compare-and-set of the read-model pointer. Blocking: operator requests run on worker threads.
 */
@ApplicationScoped
@CallsAws(IamRole.OPERATOR)
public class OperatorStore {

    private final DynamoDbAsyncClient dynamo;
    private final ActiveTable activeTable;

    OperatorStore(DynamoDbAsyncClient dynamo, ActiveTable activeTable) {
        this.dynamo = dynamo;
        this.activeTable = activeTable;
    }

    /** A consistent read of one item of the named table. */
    public Optional<Map<String, AttributeValue>> read(String table, Key key) {
        return Items.found(dynamo.getItem(b -> b.tableName(table).consistentRead(true).key(key.toAttributes())).join());
    }

    /**
     * Writes the pointer item (on the home table) if it still names {@code previous}; {@code false} when another
     * operator switched it meanwhile, so two cut-overs at once cannot both win.
     */
    public boolean switchPointer(Map<String, AttributeValue> pointer, String previous) {
        try {
            dynamo.putItem(b -> b.tableName(activeTable.home()).item(pointer)
                    .conditionExpression("attribute_not_exists(#pk) OR #t = :previous")
                    .expressionAttributeNames(Map.of("#pk", Key.PK, "#t", ActiveTable.ATTRIBUTE))
                    .expressionAttributeValues(Map.of(":previous", AttributeValue.fromS(previous)))).join();
            return true;
        } catch (CompletionException e) {
            if (e.getCause() instanceof ConditionalCheckFailedException) {
                return false;
            }
            throw e;
        }
    }
}
