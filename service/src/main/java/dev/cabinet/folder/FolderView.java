package dev.cabinet.folder;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A folder as the API shows it: its path from the root (names joined by {@code /}) and the ids of its ancestors, root
 * first, for breadcrumbs.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FolderView(String id, String name, String parentId, String path, List<String> ancestorIds, String ownerId,
        String createdAt, @JsonIgnore String etag) implements Tagged {

    static FolderView of(Map<String, AttributeValue> item) {
        String ancestors = Items.string(item, Attributes.ANCESTOR_IDS);
        return new FolderView(Items.string(item, Attributes.FOLDER_ID), Items.string(item, Attributes.NAME),
                Items.string(item, Attributes.PARENT_ID), Items.string(item, Attributes.PATH),
                ancestors == null || ancestors.isEmpty() ? List.of() : Arrays.asList(ancestors.split(FolderPaths.SEPARATOR)),
                Items.string(item, Attributes.OWNER_ID), Items.string(item, Attributes.CREATED_AT), ETags.of(item));
    }

    /** Whether moving {@code folderId} under this folder would put it inside itself. */
    boolean isInside(String folderId) {
        return FolderPaths.isSelfOrAncestor(folderId, id, String.join(FolderPaths.SEPARATOR, ancestorIds));
    }
}
