package dev.cabinet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.http.Deadline;
import dev.cabinet.projection.Projector;
import dev.cabinet.support.ProductionClasses;
import dev.cabinet.table.RetiredReadModel;
import dev.cabinet.table.TableComparison;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.TableWriter;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * Rules of the code base that a review could miss, stated by pattern: reads by key only, one store, plumbing that knows
 * no feature (a feature being a package that declares events), projectors and command decisions that are pure.
 */
class ArchitectureTest {

    /** The projection engine's sub-packages: how a plan is carried out, which no feature's projector needs. */
    private static final String[] ENGINE_MACHINERY = {"dev.cabinet.projection.contract..",
        "dev.cabinet.projection.ordering..", "dev.cabinet.projection.execution..", "dev.cabinet.projection.failure..",
        "dev.cabinet.projection.observability.."};

    private static final JavaClasses CLASSES = ProductionClasses.all();
    private static final Set<String> FEATURES = featurePackages();

    @Test
    void nothingButTheOperatorsJobsScanTheTable() {
        noClasses().that().doNotHaveFullyQualifiedName(TableComparison.class.getName())
                .and().doNotHaveFullyQualifiedName(RetiredReadModel.class.getName())
                .should().callMethodWhere(targetIs(DynamoDbAsyncClient.class, "scan"))
                .orShould().callMethodWhere(targetIs(DynamoDbClient.class, "scan"))
                .orShould().callMethodWhere(targetIs(DynamoDbAsyncClient.class, "scanPaginator"))
                .orShould().callMethodWhere(targetIs(DynamoDbClient.class, "scanPaginator"))
                .orShould().dependOnClassesThat().areAssignableTo(ScanRequest.class)
                .because("every read names its partition key: GetItem or a key-condition Query (SPEC §5); only the "
                        + "operator's item-by-item verification of a rebuilt table, and the removal of a retired "
                        + "table's read model, read it whole")
                .check(CLASSES);
    }

    @Test
    void theTablePackageIsTheOneStore() {
        noClasses().that().resideOutsideOfPackage("dev.cabinet.table..")
                .should().dependOnClassesThat().areAssignableTo(DynamoDbAsyncClient.class)
                .orShould().dependOnClassesThat().areAssignableTo(DynamoDbClient.class)
                .because("table/ owns every DynamoDB call, reads and writes (TableReader, TableWriter, and the "
                        + "operator's OperatorStore and TableComparison); the engine, the queries and the features "
                        + "go through it")
                .check(CLASSES);
    }

    @Test
    void plumbingDependsOnNoFeature() {
        // A feature is a package that declares events; everything else is plumbing, except demo/, which composes
        // the features' events into sample data on purpose.
        noClasses().that(areOutside(FEATURES)).and().resideOutsideOfPackage("dev.cabinet.demo..")
                .should().dependOnClassesThat(areInside(FEATURES))
                .because("plumbing serves every feature alike; what one feature needs lives in that feature")
                .allowEmptyShould(false)
                .check(CLASSES);
    }

    @Test
    void projectorsArePureDecisions() {
        noClasses().that().implement(Projector.class)
                .should().dependOnClassesThat().resideInAnyPackage("io.smallrye.mutiny..", "jakarta.ws.rs..",
                        "org.apache.kafka..", "software.amazon.awssdk.services.dynamodb")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(TableWriter.class.getName())
                .orShould().dependOnClassesThat().haveFullyQualifiedName(TableReader.class.getName())
                .orShould().dependOnClassesThat().resideInAnyPackage(ENGINE_MACHINERY)
                .because("a projector is a function of the event and the items it declared it needs, returning a "
                        + "write plan; the engine's contract (dev.cabinet.projection) is all it knows, and the engine "
                        + "alone reads, writes and retries")
                .allowEmptyShould(false)
                .check(CLASSES);
    }

    @Test
    void theEngineContractKnowsNoneOfItsMachinery() {
        noClasses().that().resideInAPackage("dev.cabinet.projection")
                .should().dependOnClassesThat().resideInAnyPackage(ENGINE_MACHINERY)
                .because("a feature author learns the contract alone; the machinery depends on it, not the reverse")
                .allowEmptyShould(false)
                .check(CLASSES);
    }

    @Test
    void theSharedPackageDependsOnNothingOfCabinet() {
        noClasses().that().resideInAPackage("dev.cabinet.shared..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.cabinet..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.resideInAPackage("dev.cabinet.shared.."))))
                .because("ids, timestamps and text rules are the vocabulary every layer uses, so they use none")
                .check(CLASSES);
    }

    @Test
    void nothingFiltersQueryResults() {
        noClasses().should().callMethodWhere(targetIs(QueryRequest.Builder.class, "filterExpression"))
                .orShould().callMethodWhere(targetIs(QueryRequest.Builder.class, "queryFilter"))
                .orShould().callMethodWhere(targetIs(QueryRequest.Builder.class, "conditionalOperator"))
                .because("a filter reads and pays for items it then throws away; key conditions select items instead")
                .check(CLASSES);
    }

    @Test
    void sharedPlumbingDependsOnNoFeature() {
        noClasses().that().resideInAnyPackage("dev.cabinet.table..", "dev.cabinet.eventlog..", "dev.cabinet.projection..",
                "dev.cabinet.table.query..", "dev.cabinet.http..", "dev.cabinet.auth..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.cabinet.user..", "dev.cabinet.post..",
                        "dev.cabinet.group..", "dev.cabinet.command..")
                .check(CLASSES);
    }

    @Test
    void theRoundsOfAPlanAreDecidedWithoutIo() {
        noClasses().that().haveFullyQualifiedName("dev.cabinet.projection.execution.Rounds")
                .should().dependOnClassesThat().resideInAnyPackage("io.smallrye.mutiny..", "org.apache.kafka..",
                        "software.amazon.awssdk..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(TableWriter.class.getName())
                .orShould().dependOnClassesThat().haveFullyQualifiedName(TableReader.class.getName())
                .because("which round each step goes out in is a function of the plan, unit-tested without a store; "
                        + "PlanExecutor carries the rounds out")
                .allowEmptyShould(false)
                .check(CLASSES);
    }

    @Test
    void commandDecisionsArePureFunctions() {
        noClasses().that().haveSimpleNameEndingWith("Decisions").or().resideInAPackage("dev.cabinet.decision..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.ws.rs..", "io.smallrye.mutiny..",
                        "dev.cabinet.http..", "dev.cabinet.table.query..", "software.amazon.awssdk..", "org.apache.kafka..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.cabinet.eventlog.EventLog")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Instant")
                .because("a command's rules are a function of the command and the view read for it, tested without the "
                        + "log, the table, HTTP or a clock; only the event types and records they return are shared")
                .allowEmptyShould(false)
                .check(CLASSES);
    }

    @Test
    void queriesKnowNoHttp() {
        noClasses().that().resideInAPackage("dev.cabinet.table.query..")
                .should().dependOnClassesThat().resideInAPackage("dev.cabinet.http..")
                .because("the read side refuses with its own exceptions; http/ decides how they are answered")
                .check(CLASSES);
    }

    @Test
    void everyResourceThatAnswersLaterAnswersByTheRequestDeadline() {
        classes().that().areAnnotatedWith(Path.class)
                .and(DescribedPredicate.describe("have a method that returns a Uni", type -> type.getMethods().stream()
                        .anyMatch(method -> method.getRawReturnType().isEquivalentTo(Uni.class))))
                .should().beAnnotatedWith(Deadline.class)
                .because("the Uni a resource returns is where the request deadline bounds its answer (a resource "
                        + "without it could wait on an outage far longer)")
                .allowEmptyShould(false)
                .check(CLASSES);
    }

    @Test
    void featuresDoNotDependOnEachOtherInCycles() {
        slices().matching("dev.cabinet.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    /** The packages that declare domain events: the features. */
    private static Set<String> featurePackages() {
        return CLASSES.stream()
                .filter(type -> type.isAssignableTo(DomainEvent.class) && !type.isEquivalentTo(DomainEvent.class))
                .map(JavaClass::getPackageName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static DescribedPredicate<JavaClass> areInside(Set<String> packages) {
        return DescribedPredicate.describe("reside in a feature package " + packages,
                type -> packages.stream().anyMatch(p -> type.getPackageName().equals(p)
                        || type.getPackageName().startsWith(p + ".")));
    }

    private static DescribedPredicate<JavaClass> areOutside(Set<String> packages) {
        return DescribedPredicate.describe("reside outside the feature packages",
                type -> !areInside(packages).test(type));
    }

    private static DescribedPredicate<JavaAccess<?>> targetIs(Class<?> owner, String methodName) {
        return DescribedPredicate.describe(owner.getSimpleName() + "." + methodName,
                access -> access.getTarget().getName().equals(methodName)
                        && access.getTarget().getOwner().isAssignableTo(owner));
    }
}
