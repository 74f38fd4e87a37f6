package dev.cabinet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/** Rules of the code base that a review could miss: reads by key only, and plumbing that knows no feature. */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cabinet");

    @Test
    void nothingButTheRebuildVerificationScansTheTable() {
        noClasses().that().resideOutsideOfPackage("dev.cabinet.rebuild..").should().callMethodWhere(targetIs(DynamoDbAsyncClient.class, "scan"))
                .orShould().callMethodWhere(targetIs(DynamoDbClient.class, "scan"))
                .orShould().callMethodWhere(targetIs(DynamoDbAsyncClient.class, "scanPaginator"))
                .orShould().callMethodWhere(targetIs(DynamoDbClient.class, "scanPaginator"))
                .orShould().dependOnClassesThat().areAssignableTo(ScanRequest.class)
                .because("every read names its partition key: GetItem or a key-condition Query (SPEC §5); only the "
                        + "operator's item-by-item verification of a rebuilt table reads it whole")
                .check(CLASSES);
        noClasses().that().resideInAPackage("dev.cabinet.rebuild..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.cabinet.query..", "dev.cabinet.user..",
                        "dev.cabinet.post..", "dev.cabinet.group..", "dev.cabinet.folder..", "dev.cabinet.metrics..",
                        "dev.cabinet.customer..")
                .because("the scanning operator job stays apart from the request paths and the features")
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
                "dev.cabinet.query..", "dev.cabinet.http..", "dev.cabinet.auth..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.cabinet.user..", "dev.cabinet.post..",
                        "dev.cabinet.group..", "dev.cabinet.command..")
                .check(CLASSES);
    }

    @Test
    void commandDecisionsArePureFunctions() {
        noClasses().that().haveSimpleNameEndingWith("Decisions").or().resideInAPackage("dev.cabinet.decision..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.ws.rs..", "io.smallrye.mutiny..",
                        "dev.cabinet.http..", "dev.cabinet.query..", "software.amazon.awssdk..", "org.apache.kafka..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.cabinet.eventlog.EventLog")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Instant")
                .because("a command's rules are a function of the command and the view read for it, tested without the "
                        + "log, the table, HTTP or a clock; only the event types and records they return are shared")
                .allowEmptyShould(false)
                .check(CLASSES);
    }

    @Test
    void queriesKnowNoHttp() {
        noClasses().that().resideInAPackage("dev.cabinet.query..")
                .should().dependOnClassesThat().resideInAPackage("dev.cabinet.http..")
                .because("the read side refuses with its own exceptions; http/ decides how they are answered")
                .check(CLASSES);
    }

    @Test
    void featuresDoNotDependOnEachOtherInCycles() {
        slices().matching("dev.cabinet.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    private static DescribedPredicate<JavaAccess<?>> targetIs(Class<?> owner, String methodName) {
        return DescribedPredicate.describe(owner.getSimpleName() + "." + methodName,
                access -> access.getTarget().getName().equals(methodName)
                        && access.getTarget().getOwner().isAssignableTo(owner));
    }
}
