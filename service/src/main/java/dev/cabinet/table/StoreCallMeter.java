package dev.cabinet.table;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.cabinet.iam.AwsCallLog;
import dev.cabinet.iam.IamRole;
import dev.cabinet.role.RoleConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.arc.Unremovable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Times every DynamoDB call of every client (queries, projector, operators' tools) as
 * {@code cabinet.dynamodb.calls{operation, outcome}}: latency and errors by operation, where the outcome is
 * {@code success} or the store's error code ({@code ConditionalCheckFailedException} is how idempotent projection says
 * "already applied", so it is counted apart from real failures). Registered through
 * {@code quarkus.dynamodb.interceptors}. A call refused for want of an IAM permission is logged as an error naming the
 * action, the resource and the policy that grants it; with {@code cabinet.iam.call-log} set (tests) each call is also
 * written down with the roles of its caller ({@link AwsCallLog}).
 */
@Singleton
@Unremovable
public class StoreCallMeter implements ExecutionInterceptor {

    private static final ExecutionAttribute<Long> STARTED = attribute("cabinet.call-started");
    /** Set when an attempt answered 400: if another attempt follows, the store throttled the call. */
    private static final ExecutionAttribute<Boolean> REFUSED = attribute("cabinet.call-refused");

    /** Calls, and attempts of calls, the store refused for their rate ({@code cabinet_dynamodb_throttles_total}). */
    public static final String THROTTLES = "cabinet.dynamodb.throttles";

    private static final Logger LOG = Logger.getLogger(StoreCallMeter.class);
    /** The latency buckets of every call's timer (cumulative, as Prometheus's {@code le}). */
    private static final Duration[] CALL_BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofSeconds(1)};

    private final MeterRegistry registry;
    private final AwsCallLog callLog;
    private final String instance;
    /**
     * Each operation's and outcome's timer, built once: building it again for every call (a builder with its buckets,
     * then the registry's look-up) was 1.3% of a draining projector's CPU in a JFR profile.
     */
    private final Map<Series, Timer> timers = new ConcurrentHashMap<>();

    /** One timer's tags. */
    private record Series(String operation, String outcome) {
    }

    StoreCallMeter(MeterRegistry registry, AwsCallLog callLog, RoleConfig role) {
        this.registry = registry;
        this.callLog = callLog;
        this.instance = role.role().label();
    }

    /**
     * An SDK execution attribute named for this generation of Cabinet's classes: the SDK refuses a second attribute of
     * one name in a JVM, and dev mode's live reload loads Cabinet's classes again in the same JVM (its restart failed
     * with "No duplicate ExecutionAttribute names allowed" before).
     */
    public static <T> ExecutionAttribute<T> attribute(String name) {
        return new ExecutionAttribute<>(name + "@" + Integer.toHexString(System.identityHashCode(
                StoreCallMeter.class.getClassLoader())));
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        attributes.putAttribute(STARTED, System.nanoTime());
        if (callLog.enabled()) {
            // Here, on the calling thread, the stack still shows which class made the call.
            callLog.record(action(attributes), resource(context.request()));
        }
    }

    /**
     * The SDK retries only the 400s that say "throttled" (ProvisionedThroughputExceededException, ThrottlingException,
     * RequestLimitExceeded): an attempt after one that answered 400 counts a throttle the SDK absorbed.
     */
    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        if (Boolean.TRUE.equals(attributes.getAttribute(REFUSED))) {
            attributes.putAttribute(REFUSED, false);
            throttled(attributes);
        }
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        attributes.putAttribute(REFUSED, context.httpResponse().statusCode() == 400);
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        record(attributes, "success");
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        Throwable failure = context.exception();
        if (TransientStoreErrors.isAccessDenied(failure)) {
            logMissingPermission(context.request(), attributes, failure);
        }
        if (failure instanceof AwsServiceException service && service.isThrottlingException()) {
            throttled(attributes);
        }
        record(attributes, failure instanceof AwsServiceException service && service.awsErrorDetails() != null
                ? service.awsErrorDetails().errorCode() : failure.getClass().getSimpleName());
    }

    private void throttled(ExecutionAttributes attributes) {
        io.micrometer.core.instrument.Counter.builder(THROTTLES)
                .description("DynamoDB attempts refused as throttled (past a partition's or the table's rate), whether "
                        + "the SDK's retry then succeeded or not")
                .tag("operation", String.valueOf(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME)))
                .register(registry).increment();
    }

    private void record(ExecutionAttributes attributes, String outcome) {
        Long started = attributes.getAttribute(STARTED);
        if (started != null) {
            Series series = new Series(String.valueOf(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME)),
                    outcome);
            timers.computeIfAbsent(series, this::timer).record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    private Timer timer(Series series) {
        return Timer.builder("cabinet.dynamodb.calls")
                .description("DynamoDB calls by operation and outcome, as the application sees them")
                .tag("operation", series.operation())
                .tag("outcome", series.outcome())
                // a few buckets, not a full histogram: enough to see a call's tail against a round's budget
                // (freshness needs a post's rounds in tens of milliseconds) at a few series per operation
                .serviceLevelObjectives(CALL_BUCKETS)
                .register(registry);
    }

    /**
     * An operator's problem, not a client's: the log names the action, the resource and the generated policy that
     * grants it (the response only says that a permission is missing). Every retry logs again until it is granted.
     */
    private void logMissingPermission(SdkRequest request, ExecutionAttributes attributes, Throwable failure) {
        String action = action(attributes);
        IamRole.Resource kind = resource(request);
        String policies = IamRole.ofInstance(instance).stream().filter(role -> role.grants(action, kind))
                .map(role -> "deploy/iam/" + role.policyName() + "-policy.json").collect(Collectors.joining(" or "));
        LOG.errorf("Missing permission: %s on %s was refused to this instance (cabinet.role=%s); attach %s to its IAM "
                + "role. The store said: %s", action, resourceName(request), instance,
                policies.isEmpty() ? "a policy that grants it" : policies, failure.getMessage());
    }

    private static String action(ExecutionAttributes attributes) {
        return "dynamodb:" + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    }

    private static IamRole.Resource resource(SdkRequest request) {
        return request.getValueForField("IndexName", String.class).isPresent() ? IamRole.Resource.INDEX
                : IamRole.Resource.TABLE;
    }

    /** The table (and index) a request names: {@code table/cabinet}, {@code table/cabinet/index/gsi1}. */
    @SuppressWarnings("unchecked")
    private static String resourceName(SdkRequest request) {
        String table = request.getValueForField("TableName", String.class)
                .or(() -> request.getValueForField("RequestItems", Map.class)
                        .map(items -> String.join(",", (Collection<String>) items.keySet())))
                .orElse("*");
        String index = request.getValueForField("IndexName", String.class).map(i -> "/index/" + i).orElse("");
        return "table/" + table + index;
    }
}
