package dev.cabinet.table;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which table answers reads: the one the home table's pointer names (pattern 23), the home table itself until a
 * blue/green rebuild's cut-over sets it. Read once at startup, then looked up again at most every
 * {@code cabinet.table.active-refresh} in the background, so a read never waits for it.
 */
@ApplicationScoped
@CallsAws({ IamRole.API, IamRole.PROJECTOR, IamRole.OPERATOR })
public class ActiveTable {

    public static final String ATTRIBUTE = "table";
    private static final Logger LOG = Logger.getLogger(ActiveTable.class);

    private final DynamoDbAsyncClient dynamo;
    private final TableConfig config;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile String name;
    private volatile long lookedUpAt;

    ActiveTable(DynamoDbAsyncClient dynamo, TableConfig config) {
        this.dynamo = dynamo;
        this.config = config;
        this.name = config.name();
    }

    // After TableBootstrap (priority 10) made sure the home table exists, before consumers and requests start.
    void onStart(@Observes @Priority(20) StartupEvent event) {
        lookUp().await().atMost(Duration.ofSeconds(30));
    }

    /** The table reads go to; may be up to one refresh period behind a cut-over. */
    public String name() {
        if (System.nanoTime() - lookedUpAt > config.activeRefresh().toNanos() && refreshing.compareAndSet(false, true)) {
            lookUp().subscribe().with(ignored -> refreshing.set(false), failure -> {
                refreshing.set(false);
                LOG.debugf("could not look up the active table, keeping %s: %s", name, failure);
            });
        }
        return name;
    }

    /** Reads the pointer now (consistently) and remembers it; emits the active table's name. */
    public Uni<String> lookUp() {
        return Uni.createFrom().completionStage(() -> dynamo.getItem(b -> b.tableName(config.name())
                .key(pointerKey().toAttributes()).consistentRead(true)))
                .map(response -> {
                    Map<String, AttributeValue> item = response.item();
                    String active = item == null || !item.containsKey(ATTRIBUTE) ? config.name() : item.get(ATTRIBUTE).s();
                    if (!active.equals(name)) {
                        LOG.infof("Reads now go to table '%s' (was '%s')", active, name);
                    }
                    name = active;
                    lookedUpAt = System.nanoTime();
                    return active;
                });
    }

    /** The home table, where the pointer and idempotency records live. */
    public String home() {
        return config.name();
    }

    public static Key pointerKey() {
        return KeyPlan.ACTIVE_READ_MODEL.key();
    }
}
