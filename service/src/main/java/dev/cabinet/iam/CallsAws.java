package dev.cabinet.iam;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class that calls AWS with the roles it acts for. A call is attributed to the innermost class on the calling
 * stack that carries this mark, so the class whose code makes the call declares it (see {@link IamRole}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CallsAws {

    IamRole[] value();
}
