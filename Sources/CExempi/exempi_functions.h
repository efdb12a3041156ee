#ifndef SEPIA_EXEMPI_FUNCTIONS_H
#define SEPIA_EXEMPI_FUNCTIONS_H

#include <expat.h>
#include <exempi-2.0/exempi/xmp.h>

/* (return type, name, parameters, arguments) of every Exempi function Sepia calls. F returns a value, V nothing. */
#define SEPIA_EXEMPI_FUNCTIONS(F, V) \
    F(bool, xmp_init, (void), ()) \
    F(int, xmp_get_error, (void), ()) \
    F(bool, xmp_register_namespace, (const char *p0, const char *p1, XmpStringPtr p2), (p0, p1, p2)) \
    F(XmpPtr, xmp_new_empty, (void), ()) \
    F(bool, xmp_free, (XmpPtr p0), (p0)) \
    F(bool, xmp_parse, (XmpPtr p0, const char *p1, size_t p2), (p0, p1, p2)) \
    F(bool, xmp_serialize_and_format, (XmpPtr p0, XmpStringPtr p1, uint32_t p2, uint32_t p3, const char *p4, const char *p5, int32_t p6), (p0, p1, p2, p3, p4, p5, p6)) \
    F(bool, xmp_get_property, (XmpPtr p0, const char *p1, const char *p2, XmpStringPtr p3, uint32_t *p4), (p0, p1, p2, p3, p4)) \
    F(bool, xmp_get_array_item, (XmpPtr p0, const char *p1, const char *p2, int32_t p3, XmpStringPtr p4, uint32_t *p5), (p0, p1, p2, p3, p4, p5)) \
    F(bool, xmp_set_property, (XmpPtr p0, const char *p1, const char *p2, const char *p3, uint32_t p4), (p0, p1, p2, p3, p4)) \
    F(bool, xmp_append_array_item, (XmpPtr p0, const char *p1, const char *p2, uint32_t p3, const char *p4, uint32_t p5), (p0, p1, p2, p3, p4, p5)) \
    F(bool, xmp_delete_property, (XmpPtr p0, const char *p1, const char *p2), (p0, p1, p2)) \
    F(bool, xmp_get_localized_text, (XmpPtr p0, const char *p1, const char *p2, const char *p3, const char *p4, XmpStringPtr p5, XmpStringPtr p6, uint32_t *p7), (p0, p1, p2, p3, p4, p5, p6, p7)) \
    F(bool, xmp_set_localized_text, (XmpPtr p0, const char *p1, const char *p2, const char *p3, const char *p4, const char *p5, uint32_t p6), (p0, p1, p2, p3, p4, p5, p6)) \
    F(XmpStringPtr, xmp_string_new, (void), ()) \
    V(xmp_string_free, (XmpStringPtr p0), (p0)) \
    F(const char *, xmp_string_cstr, (XmpStringPtr p0), (p0)) \
    F(size_t, xmp_string_len, (XmpStringPtr p0), (p0))

/* The expat functions sepia_xmp_check calls, through pointers (see exempi_loader.c). */
#define SEPIA_EXPAT_FUNCTIONS(F, V) \
    F(XML_Parser, XML_ParserCreateNS, (const XML_Char *p0, XML_Char p1), (p0, p1)) \
    V(XML_ParserFree, (XML_Parser p0), (p0)) \
    V(XML_SetUserData, (XML_Parser p0, void *p1), (p0, p1)) \
    V(XML_SetElementHandler, (XML_Parser p0, XML_StartElementHandler p1, XML_EndElementHandler p2), (p0, p1, p2)) \
    V(XML_SetStartDoctypeDeclHandler, (XML_Parser p0, XML_StartDoctypeDeclHandler p1), (p0, p1)) \
    V(XML_SetEntityDeclHandler, (XML_Parser p0, XML_EntityDeclHandler p1), (p0, p1)) \
    V(XML_SetStartNamespaceDeclHandler, (XML_Parser p0, XML_StartNamespaceDeclHandler p1), (p0, p1)) \
    F(int, XML_SetParamEntityParsing, (XML_Parser p0, enum XML_ParamEntityParsing p1), (p0, p1)) \
    F(enum XML_Status, XML_Parse, (XML_Parser p0, const char *p1, int p2, int p3), (p0, p1, p2, p3)) \
    F(enum XML_Status, XML_StopParser, (XML_Parser p0, XML_Bool p1), (p0, p1)) \
    F(enum XML_Error, XML_GetErrorCode, (XML_Parser p0), (p0)) \
    F(const XML_LChar *, XML_ErrorString, (enum XML_Error p0), (p0)) \
    F(XML_Size, XML_GetCurrentLineNumber, (XML_Parser p0), (p0)) \
    F(XML_Size, XML_GetCurrentColumnNumber, (XML_Parser p0), (p0))

#endif
