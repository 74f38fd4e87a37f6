package dev.cabinet.folder;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.shared.TextRules;
import dev.cabinet.shared.Ids;

/** The body of {@code POST /folders}: a root folder, or a child of {@code parentId}. */
public record NewFolderRequest(
        @Schema(example = "Reports")
        @NotBlank @Size(max = TextRules.NAME_MAX) @Pattern(regexp = TextRules.FOLDER_NAME) String name,
        @Pattern(regexp = Ids.PATTERN) String parentId) {
}
