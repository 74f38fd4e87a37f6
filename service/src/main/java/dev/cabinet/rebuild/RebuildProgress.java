package dev.cabinet.rebuild;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import dev.cabinet.projection.ProjectionProgress;
import dev.cabinet.table.ActiveTable;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** How far a candidate table's projector is, partition by partition, against the projector of the live table. */
@ApplicationScoped
@CallsAws(IamRole.OPERATOR)
class RebuildProgress {

    private static final Duration STORE_WAIT = Duration.ofSeconds(30);

    private final DynamoDbAsyncClient dynamo;
    private final ActiveTable activeTable;
    private final int partitions;

    RebuildProgress(DynamoDbAsyncClient dynamo, ActiveTable activeTable,
            @ConfigProperty(name = "cabinet.events.partitions") int partitions) {
        this.dynamo = dynamo;
        this.activeTable = activeTable;
        this.partitions = partitions;
    }

    /** One partition: the last offset applied to the live table and to the candidate (-1: nothing yet). */
    record PartitionProgress(String topic, int partition, long live, long candidate) {
        boolean caughtUp() {
            return candidate >= live;
        }
    }

    /** The candidate has caught up when it has applied, on every partition, at least what the live projector has. */
    record Status(String candidate, String active, boolean caughtUp, List<PartitionProgress> partitions) {
    }

    Status of(String candidate) {
        String live = activeTable.lookUp().await().atMost(STORE_WAIT);
        List<PartitionProgress> progress = new ArrayList<>();
        for (String topic : Topics.ALL) {
            for (int partition = 0; partition < partitions; partition++) {
                progress.add(new PartitionProgress(topic, partition, applied(live, topic, partition),
                        applied(candidate, topic, partition)));
            }
        }
        return new Status(candidate, live, progress.stream().allMatch(PartitionProgress::caughtUp), progress);
    }

    private long applied(String table, String topic, int partition) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                .key(ProjectionProgress.key(topic, partition).toAttributes())).join().item();
        return item == null || !item.containsKey(ProjectionProgress.APPLIED) ? -1
                : Long.parseLong(item.get(ProjectionProgress.APPLIED).n());
    }
}
