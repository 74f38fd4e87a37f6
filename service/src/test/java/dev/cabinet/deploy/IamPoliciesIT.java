package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cabinet.iam.AwsCallLog;
import dev.cabinet.iam.IamRole;

/**
 * The generated IAM policies hold exactly what the code does: every AWS operation the test suite made (the in-JVM
 * tests and every packaged application the ITs start write them to target/store-calls, see {@link AwsCallLog}) must
 * be granted to each role its caller acts for, and each role's every grant must have been made by some caller acting
 * for it. Runs in its own failsafe execution after every other test. The second check needs the whole suite, which is
 * {@code ./mvnw verify} and then {@code benchmark/crash --after-verify} (the long fault schedules, whose operator
 * instance alone scans and puts): that run keeps verify's calls and sets {@value #WHOLE_SUITE}, and only there does the
 * check run (.ci/run runs both).
 */
class IamPoliciesIT {

    private static final Path CALLS = Path.of(System.getProperty(AwsCallLog.PROPERTY, "target/store-calls"));
    private static final Path MAIN_CLASSES = Path.of("target", "classes");
    /** Set by {@code benchmark/crash --after-verify}: the calls recorded are the whole suite's. */
    static final String WHOLE_SUITE = "cabinet.iam.whole-suite";

    /**
     * One recorded call: the roles of its caller (or "-"), the action, the kind of resource, the caller, and the
     * {@code cabinet.role} of the instance that made it.
     */
    record Call(List<IamRole> roles, String action, IamRole.Resource resource, String caller, String instance) {

        static Call parse(String line) {
            String[] parts = line.split(" ");
            List<IamRole> roles = parts[0].equals("-") ? List.of()
                    : Stream.of(parts[0].split(",")).map(IamRole::valueOf).toList();
            return new Call(roles, parts[1], IamRole.Resource.valueOf(parts[2].toUpperCase(java.util.Locale.ROOT)),
                    parts[3], parts.length > 4 ? parts[4] : "both");
        }
    }

    private static final List<Call> calls = new ArrayList<>();

    @BeforeAll
    static void readTheCallsTheSuiteMade() throws IOException {
        if (someTestsOnly()) {
            assumeTrue(Files.isDirectory(CALLS), "the chosen tests made no AWS call");
        }
        assertTrue(Files.isDirectory(CALLS), CALLS.toAbsolutePath() + " is missing: the tests record the calls they "
                + "make there (" + AwsCallLog.PROPERTY + ", set by the pom); run them first");
        try (Stream<Path> files = Files.list(CALLS)) {
            for (Path file : files.toList()) {
                Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).map(Call::parse)
                        .forEach(calls::add);
            }
        }
        assertFalse(calls.isEmpty(), "no calls recorded in " + CALLS.toAbsolutePath());
    }

    @Test
    void everyCallTheCodeMakesIsGrantedToTheRolesItActsFor() {
        Set<String> missing = new TreeSet<>();
        for (Call call : calls) {
            if (call.roles().isEmpty()) {
                // A test's own look at the store is no part of a role; a class of the application's must say its roles.
                if (Files.exists(MAIN_CLASSES.resolve(call.caller().replace('.', '/') + ".class"))) {
                    missing.add(call.caller() + " made " + call.action() + " but is not marked @CallsAws");
                }
                continue;
            }
            if (IamRole.NOT_GRANTED.containsKey(call.action())) {
                continue;
            }
            for (IamRole role : call.roles()) {
                if (!role.grants(call.action(), call.resource())) {
                    missing.add(role.policyName() + " lacks " + call.action() + " on " + call.resource().label()
                            + " (made by " + call.caller() + ")");
                }
            }
        }
        assertTrue(missing.isEmpty(), "Add these to dev.cabinet.iam.IamRole (and regenerate deploy/iam):\n"
                + String.join("\n", missing));
    }

    /**
     * The rule a pod runs under: every call an instance made is granted by the one policy its role's pod carries
     * (deploy/k8s attaches one per ServiceAccount), for the instances the ITs start in a single role.
     */
    @Test
    void everyCallAnInstanceMadeIsGrantedByThePolicyOfItsPod() {
        Set<String> refused = new TreeSet<>();
        for (Call call : calls) {
            if (call.instance().equals("both") || IamRole.NOT_GRANTED.containsKey(call.action())) {
                continue;
            }
            if (IamRole.ofInstance(call.instance()).stream().noneMatch(r -> r.grants(call.action(), call.resource()))) {
                refused.add("a " + call.instance() + " instance made " + call.action() + " on "
                        + call.resource().label() + " (" + call.caller() + "), which its pod's policy does not grant");
            }
        }
        assertTrue(refused.isEmpty(), String.join("\n", refused));
    }

    /**
     * The public API's pod can neither scan the table nor batch-write or put items: its policy grants none of them,
     * and the API instances the ITs ran served every request without them; the operator's endpoints, which need
     * them, run on pods of their own.
     */
    @Test
    void theApiPodMayNeitherScanNorBatchWriteNorPut() {
        assumeFalse(someTestsOnly(), "-Dtest or -Dit.test chose some tests only: the API instance may not have run");
        List<Call> byApi = calls.stream().filter(c -> c.instance().equals("api")).toList();
        assertFalse(byApi.isEmpty(), "no API instance (cabinet.role=api) recorded its calls: ProductionModeIT runs one");
        for (String action : List.of("dynamodb:Scan", "dynamodb:BatchWriteItem", "dynamodb:PutItem")) {
            assertFalse(IamRole.API.grants(action, IamRole.Resource.TABLE), "the API's policy grants " + action);
            assertTrue(IamRole.ofInstance("api").stream().noneMatch(r -> r.grants(action, IamRole.Resource.TABLE)),
                    "an API pod carries a policy granting " + action);
            assertTrue(byApi.stream().noneMatch(c -> c.action().equals(action)), "an API instance made " + action);
        }
        assertTrue(calls.stream().anyMatch(c -> c.instance().equals("operator")),
                "no operator instance (cabinet.role=operator) recorded its calls: ProductionModeIT runs one");
    }

    @Test
    void everyGrantIsUsedByTheCode() {
        assumeTrue(Boolean.getBoolean(WHOLE_SUITE), "the whole suite is ./mvnw verify and then benchmark/crash "
                + "--after-verify, which keeps verify's calls: this check runs there (.ci/run)");
        Set<String> unused = new TreeSet<>();
        for (IamRole role : IamRole.values()) {
            for (IamRole.Resource resource : IamRole.Resource.values()) {
                List<String> granted = switch (resource) {
                    case TABLE -> role.tableActions();
                    case INDEX -> role.indexActions();
                    case OBJECT -> role.objectActions();
                    case BUCKET -> role.bucketActions();
                    case KEY -> role.keyActions();
                };
                for (String action : granted) {
                    if (calls.stream().noneMatch(c -> c.roles().contains(role) && c.action().equals(action)
                            && c.resource() == resource)) {
                        unused.add(role.policyName() + " grants " + action + " on " + resource.label()
                                + ", which no caller acting for it made");
                    }
                }
            }
        }
        for (String action : IamRole.NOT_GRANTED.keySet()) {
            if (calls.stream().noneMatch(c -> c.action().equals(action))) {
                unused.add("IamRole.NOT_GRANTED lists " + action + ", which nothing made");
            }
        }
        assertTrue(unused.isEmpty(), "Remove these from dev.cabinet.iam.IamRole (or test the code that needs them):\n"
                + String.join("\n", unused));
    }

    /**
     * Maven hands its command line's properties to the tests: -Dtest or -Dit.test means some tests only, unless the
     * calls kept from a verify before make the whole suite.
     */
    private static boolean someTestsOnly() {
        return !Boolean.getBoolean(WHOLE_SUITE)
                && (System.getProperty("test") != null || System.getProperty("it.test") != null);
    }
}
