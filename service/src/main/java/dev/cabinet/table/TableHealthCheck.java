package dev.cabinet.table;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/** Readiness: the table answers DescribeTable and is ACTIVE (an instance that cannot read or project is not ready). */
@Readiness
@ApplicationScoped
@CallsAws({ IamRole.API, IamRole.PROJECTOR, IamRole.OPERATOR })
public class TableHealthCheck implements AsyncHealthCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final DynamoDbAsyncClient dynamo;
    private final TableConfig config;

    TableHealthCheck(DynamoDbAsyncClient dynamo, TableConfig config) {
        this.dynamo = dynamo;
        this.config = config;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return Uni.createFrom().completionStage(() -> dynamo.describeTable(b -> b.tableName(config.name())))
                .ifNoItem().after(TIMEOUT).fail()
                .map(response -> HealthCheckResponse.named("dynamodb-table")
                        .status("ACTIVE".equals(response.table().tableStatusAsString()))
                        .withData("table", config.name())
                        .withData("status", response.table().tableStatusAsString())
                        .build())
                .onFailure().recoverWithItem(e -> HealthCheckResponse.named("dynamodb-table").down()
                        .withData("table", config.name())
                        .withData("error", e.getClass().getSimpleName() + ": " + e.getMessage())
                        .build());
    }
}
