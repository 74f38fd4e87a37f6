package dev.cabinet.table;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import io.quarkus.runtime.StartupEvent;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * At startup, before anything reads or projects: verifies that the configured table has the keys and indexes of the key
 * plan, and fails fast saying what is missing. Creates the table only where {@code cabinet.table.create-if-missing} allows.
 */
@Singleton
@CallsAws({ IamRole.API, IamRole.PROJECTOR, IamRole.OPERATOR })
public class TableBootstrap {

    private static final Logger LOG = Logger.getLogger(TableBootstrap.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final DynamoDbAsyncClient dynamo;
    private final TableConfig config;

    TableBootstrap(DynamoDbAsyncClient dynamo, TableConfig config) {
        this.dynamo = dynamo;
        this.config = config;
    }

    // Runs before the messaging connectors start consuming (they observe StartupEvent at a later priority). Blocking is
    // fine here: this is the startup thread, and nothing may run before the table is known to be right.
    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (!config.mayAnswerReads(config.target())) {
            throw new IllegalStateException("cabinet.table.projection-target '" + config.target() + "' is not a "
                    + "rebuild's table: name it " + config.name() + TableConfig.REBUILD_INFIX + "<suffix> (the IAM "
                    + "policies in deploy/iam grant the home table and those only)");
        }
        ensure(config.name());
        if (!config.target().equals(config.name())) {
            ensure(config.target());
        }
    }

    private void ensure(String name) {
        TableDescription table = describe(name).orElseGet(() -> createOrFail(name));
        List<String> problems = TableVerifier.differences(table);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Table '" + name + "' does not match Cabinet's key plan:\n - "
                    + String.join("\n - ", problems)
                    + "\nFix the table (see docs/key-plan.md) or point cabinet.table.name at one that matches.");
        }
        LOG.infof("Table '%s' matches the key plan", name);
        checkTimeToLive(name);
    }

    /**
     * Time to live only bounds how long metric samples are kept, so a table without it is reported, not refused. Where
     * Cabinet may create the table it also switches TTL on; dynalite does not implement that call, which is said once.
     */
    private void checkTimeToLive(String name) {
        try {
            TimeToLiveStatus status = dynamo.describeTimeToLive(b -> b.tableName(name))
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).timeToLiveDescription().timeToLiveStatus();
            if (status == TimeToLiveStatus.ENABLED || status == TimeToLiveStatus.ENABLING) {
                return;
            }
            if (config.createIfMissing()) {
                dynamo.updateTimeToLive(b -> b.tableName(name).timeToLiveSpecification(ttl -> ttl
                        .enabled(true).attributeName(KeyPlan.TTL_ATTRIBUTE))).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                LOG.infof("Enabled time to live on '%s' of table '%s'", KeyPlan.TTL_ATTRIBUTE, name);
            } else {
                LOG.warnf("Time to live is not enabled on table '%s': metric samples will not expire. Enable it on "
                        + "attribute '%s' (the Table resource in deploy/k8s does).", name, KeyPlan.TTL_ATTRIBUTE);
            }
        } catch (Exception e) {
            LOG.warnf("Time to live could not be checked or enabled on table '%s' (%s): metric samples keep their '%s' "
                    + "but this store will not delete them.", name, rootMessage(e), KeyPlan.TTL_ATTRIBUTE);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }

    private Optional<TableDescription> describe(String name) {
        try {
            return Optional.of(dynamo.describeTable(b -> b.tableName(name))
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).table());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ResourceNotFoundException) {
                return Optional.empty();
            }
            throw new IllegalStateException("Could not describe table '" + name + "': " + e.getCause(), e);
        } catch (Exception e) {
            throw new IllegalStateException("Could not describe table '" + name + "': " + e, e);
        }
    }

    private TableDescription createOrFail(String name) {
        if (!config.createIfMissing()) {
            throw new IllegalStateException("Table '" + name + "' does not exist. Create it from the key plan "
                    + "(docs/key-plan.md, deploy/k8s), or set cabinet.table.create-if-missing=true to let Cabinet create it.");
        }
        try {
            TableDescription created = dynamo.createTable(TableDefinition.createTableRequest(name))
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).tableDescription();
            dynamo.waiter().waitUntilTableExists(b -> b.tableName(name))
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            LOG.infof("Created table '%s' from the key plan", name);
            return created;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ResourceInUseException) {
                return describe(name).orElseThrow();   // another instance created it meanwhile
            }
            throw new IllegalStateException("Could not create table '" + name + "': " + e.getCause(), e);
        } catch (Exception e) {
            throw new IllegalStateException("Could not create table '" + name + "': " + e, e);
        }
    }
}
