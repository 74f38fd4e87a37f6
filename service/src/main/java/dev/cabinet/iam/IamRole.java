package dev.cabinet.iam;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The AWS permissions each part of Cabinet needs: the one declaration the IAM policies in {@code deploy/iam/} are
 * generated from. Each class that calls AWS says which of these roles it acts for ({@link CallsAws}); the test suite
 * records every call it makes with the roles of its caller, and {@code IamPoliciesIT} fails when a role lacks an
 * operation its code makes, or grants one nothing makes.
 */
public enum IamRole {

    /**
     * The REST API: reads (batched for the feed's like counts), idempotent commands, table checks at startup and in
     * readiness, presigned uploads and downloads, and the HEAD that confirms an upload (S3 authorises HEAD by GetObject,
     * and answers a missing object's HEAD 404 only to a caller that may list the bucket).
     */
    API("cabinet-api", "the REST API (Deployment cabinet-api)",
            Set.of("GetItem", "BatchGetItem", "Query", "UpdateItem", "DeleteItem", "DescribeTable",
                    "DescribeTimeToLive"),
            Set.of("Query"),
            Set.of("PutObject", "GetObject"),
            Set.of("ListBucket"),
            Set.of("GenerateDataKey", "Decrypt")),

    /**
     * The projector: conditional writes, consistent reads (an event's first reads batched) and key-condition queries,
     * batched metric writes, and the deletion of a deleted file's object.
     */
    PROJECTOR("cabinet-projector", "the projector (Deployment cabinet-projector, and a rebuild's projector)",
            Set.of("GetItem", "BatchGetItem", "Query", "UpdateItem", "DeleteItem", "BatchWriteItem", "DescribeTable",
                    "DescribeTimeToLive"),
            Set.of("Query"),
            Set.of("DeleteObject"),
            Set.of(),
            Set.of("Decrypt")),

    /**
     * The operators' endpoints under {@code /admin}, on instances of their own (Deployment cabinet-operator): a parked
     * key's retry applies its events through the projectors (so it writes what they write), and a rebuild's
     * verification scans and batch-reads both tables and its cut-over puts the pointer item; like every instance, it
     * checks the table at startup and in readiness. No public API instance carries this policy.
     */
    OPERATOR("cabinet-operator", "the operators' endpoints under /admin (Deployment cabinet-operator)",
            Set.of("GetItem", "Query", "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "Scan",
                    "BatchGetItem", "DescribeTable", "DescribeTimeToLive"),
            Set.of("Query"),
            Set.of(),
            Set.of(),
            Set.of("Decrypt"));

    /**
     * Operations the tests make that no production role is granted, and why: in production the ACK Table resource
     * creates the table with its time to live, and the application only verifies it.
     */
    public static final Map<String, String> NOT_GRANTED = Map.of(
            "dynamodb:CreateTable", "only with cabinet.table.create-if-missing=true (dev and test)",
            "dynamodb:UpdateTimeToLive", "only with cabinet.table.create-if-missing=true (dev and test)");

    /** Where files' objects live ({@code folders/{folderId}/files/{fileId}}, see UploadLinks): all a role may touch. */
    public static final String OBJECT_PREFIX = "folders/";

    private final String policyName;
    private final String servedBy;
    private final Set<String> tableActions;
    private final Set<String> indexActions;
    private final Set<String> objectActions;
    private final Set<String> bucketActions;
    private final Set<String> keyActions;

    IamRole(String policyName, String servedBy, Set<String> tableActions, Set<String> indexActions,
            Set<String> objectActions, Set<String> bucketActions, Set<String> keyActions) {
        this.policyName = policyName;
        this.servedBy = servedBy;
        this.tableActions = new TreeSet<>(tableActions);
        this.indexActions = new TreeSet<>(indexActions);
        this.objectActions = new TreeSet<>(objectActions);
        this.bucketActions = new TreeSet<>(bucketActions);
        this.keyActions = new TreeSet<>(keyActions);
    }

    /** The IAM policy's name; its document is {@code deploy/iam/<name>-policy.json}. */
    public String policyName() {
        return policyName;
    }

    public String servedBy() {
        return servedBy;
    }

    /** What the role may do on the tables: {@code dynamodb:...} actions, sorted. */
    public List<String> tableActions() {
        return tableActions.stream().map(a -> "dynamodb:" + a).toList();
    }

    /** What the role may do on the tables' global secondary indexes. */
    public List<String> indexActions() {
        return indexActions.stream().map(a -> "dynamodb:" + a).toList();
    }

    /** What the role may do on the bucket's objects: {@code s3:...} actions. */
    public List<String> objectActions() {
        return objectActions.stream().map(a -> "s3:" + a).toList();
    }

    /**
     * What the role may do on the bucket itself, only for keys under {@link #OBJECT_PREFIX}: {@code s3:ListBucket},
     * without which S3 answers a HEAD of a missing object 403 instead of 404 (the API's check of an upload).
     */
    public List<String> bucketActions() {
        return bucketActions.stream().map(a -> "s3:" + a).toList();
    }

    /**
     * What the role may do with the KMS key that wraps the people's data keys ({@code cabinet.erasure.kms-key-id}):
     * {@code kms:...} actions. The API makes a person's key and unwraps it to seal their data; everything that applies
     * events only unwraps.
     */
    public List<String> keyActions() {
        return keyActions.stream().map(a -> "kms:" + a).toList();
    }

    /** Whether the role may make {@code action} (e.g. {@code dynamodb:Query}) on a resource of this kind. */
    public boolean grants(String action, Resource resource) {
        return switch (resource) {
            case TABLE -> tableActions().contains(action);
            case INDEX -> indexActions().contains(action);
            case OBJECT -> objectActions().contains(action);
            case BUCKET -> bucketActions().contains(action);
            case KEY -> keyActions().contains(action);
        };
    }

    /**
     * The policies an instance's pod runs with, by its {@code cabinet.role} ({@code api}, {@code projector},
     * {@code operator} or {@code both}; read here as text, since dev.cabinet.role depends on the HTTP layer, which
     * depends on this): one each, as deploy/k8s attaches them; {@code both} (dev and tests) has all three.
     */
    public static Set<IamRole> ofInstance(String cabinetRole) {
        String role = cabinetRole == null ? "" : cabinetRole.trim().toLowerCase(Locale.ROOT);
        return switch (role) {
            case "api" -> EnumSet.of(API);
            case "projector" -> EnumSet.of(PROJECTOR);
            case "operator" -> EnumSet.of(OPERATOR);
            default -> EnumSet.allOf(IamRole.class);
        };
    }

    /** The kinds of resource a policy statement names. */
    public enum Resource {
        TABLE, INDEX, OBJECT, BUCKET, KEY;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
