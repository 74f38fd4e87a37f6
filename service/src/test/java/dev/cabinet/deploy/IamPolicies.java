package dev.cabinet.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.iam.IamRole;

/**
 * Renders an IAM policy document per {@link IamRole}, and the summary table deploy/k8s/README.md shows. Account,
 * region, table and bucket are {@code ${...}} placeholders that {@code envsubst} fills in (see the README).
 */
final class IamPolicies {

    static final String DYNAMODB = "arn:aws:dynamodb:${AWS_REGION}:${AWS_ACCOUNT_ID}:table/";
    /**
     * The home table, and the tables rebuilds fill (cabinet-rebuild-v2, ...), which answer reads after a cut-over: a
     * prefix of their own, so that no unrelated table that merely starts with the home table's name is granted.
     */
    static final List<String> TABLES = List.of(DYNAMODB + "${CABINET_TABLE_NAME}",
            DYNAMODB + "${CABINET_TABLE_NAME}-rebuild-*");
    static final String BUCKET = "arn:aws:s3:::${CABINET_FILES_BUCKET}/";
    static final String BUCKET_ITSELF = "arn:aws:s3:::${CABINET_FILES_BUCKET}";
    /** The KMS key that wraps the people's data keys (an IAM policy names a key by its ARN, never by an alias). */
    static final String KEY = "${CABINET_KMS_KEY_ARN}";

    private static final DefaultIndenter INDENT = new DefaultIndenter("  ", "\n");
    private static final ObjectMapper JSON = new ObjectMapper();

    private IamPolicies() {
    }

    static String fileName(IamRole role) {
        return role.policyName() + "-policy.json";
    }

    static String document(IamRole role) throws Exception {
        List<Object> statements = new ArrayList<>();
        statements.add(statement("Tables", role.tableActions(), TABLES));
        if (!role.indexActions().isEmpty()) {
            List<String> indexes = TABLES.stream().map(t -> t + "/index/*").toList();
            statements.add(statement("Indexes", role.indexActions(), indexes));
        }
        if (!role.objectActions().isEmpty()) {
            statements.add(statement("Objects", role.objectActions(), List.of(BUCKET + IamRole.OBJECT_PREFIX + "*")));
        }
        if (!role.bucketActions().isEmpty()) {
            // Listing only under the objects' prefix: enough for S3 to answer a missing object's HEAD with 404.
            Map<String, Object> statement = statement("ListObjects", role.bucketActions(), List.of(BUCKET_ITSELF));
            statement.put("Condition", Map.of("StringLike", Map.of("s3:prefix", List.of(IamRole.OBJECT_PREFIX + "*"))));
            statements.add(statement);
        }
        if (!role.keyActions().isEmpty()) {
            statements.add(statement("DataKeys", role.keyActions(), List.of(KEY)));
        }
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("Version", "2012-10-17");
        policy.put("Statement", statements);
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withSeparators(Separators.createDefaultInstance()
                        .withObjectFieldValueSpacing(Separators.Spacing.AFTER));
        printer.indentArraysWith(INDENT);
        printer.indentObjectsWith(INDENT);
        return JSON.writer(printer).writeValueAsString(policy) + "\n";
    }

    private static Map<String, Object> statement(String sid, List<String> actions, List<String> resources) {
        Map<String, Object> statement = new LinkedHashMap<>();
        statement.put("Sid", sid);
        statement.put("Effect", "Allow");
        statement.put("Action", actions);
        statement.put("Resource", resources);
        return statement;
    }

    /** The README's table: which policy, for what, and what it allows. */
    static String readmeTable() {
        StringBuilder table = new StringBuilder()
                .append("| policy | for | DynamoDB, tables | DynamoDB, indexes | S3, objects | S3, the bucket (under "
                        + "`" + IamRole.OBJECT_PREFIX + "`) | KMS, the data keys' key |\n")
                .append("|---|---|---|---|---|---|---|\n");
        for (IamRole role : IamRole.values()) {
            table.append("| [`").append(fileName(role)).append("`](../iam/").append(fileName(role)).append(") | ")
                    .append(role.servedBy()).append(" | ").append(names(role.tableActions())).append(" | ")
                    .append(names(role.indexActions())).append(" | ").append(names(role.objectActions()))
                    .append(" | ").append(names(role.bucketActions())).append(" | ")
                    .append(names(role.keyActions())).append(" |\n");
        }
        return table.toString();
    }

    private static String names(List<String> actions) {
        return actions.isEmpty() ? "none" : String.join(", ", actions.stream().map(a -> "`" + a + "`").toList());
    }
}
